/**
 * Resource files as react-admin <Resource> props: one lazy generic screen for all of them, and the
 * seller and buyer variants from the same declaration, each behind the routes' one access check (RouteGuard).
 */
import { Loading, type RaRecord, type ResourceProps } from 'react-admin';
import type { Registry } from '../../contract';
import type { ScreenResource } from './types';
import { Loaded } from './loaded';
import { recordLabel } from './recordLabel';
import { RouteGuard } from './RouteGuard';

const loadScreen = () => import('./ManagementScreen');

export function toResources(registry: Registry<ScreenResource>): ResourceProps[] {
  return registry.resources.flatMap((def) => {
    if (!def.screen) return [];
    const entity = registry.entity(def.name);
    const variants = [
      ...(def.menu ? [{ resource: def.menu.path.slice(1), seller: false }] : def.screenPath ? [{ resource: def.screenPath.slice(1), seller: false }] : []),
      ...(def.seller ? [{ resource: def.seller.path.slice(1), seller: true }] : []),
      ...(def.buyer ? [{ resource: def.buyer.path.slice(1), seller: false, buyer: true }] : []),
    ];
    return variants.map(({ resource, seller, buyer = false }) => ({
      name: resource,
      recordRepresentation: (record: RaRecord) => recordLabel(record, def.recordRepresentation),
      list: function DeclaredScreen() {
        return (
          <RouteGuard path={`/${resource}`}>
            <Loaded loader={loadScreen} props={{ def, entity, resource, seller, buyer }} fallback={<Loading />} />
          </RouteGuard>
        );
      },
    }));
  });
}
