/**
 * Resource files as react-admin <Resource> props: one lazy generic screen for all of them, and the
 * seller and buyer variants from the same declaration, each behind the routes' one access check (RouteGuard).
 */
import { usePrefetchQuery } from '@tanstack/react-query';
import { Loading, useDataProvider, type RaRecord, type ResourceProps } from 'react-admin';
import { useLocation } from 'react-router-dom';
import type { Registry } from '../../contract';
import type { ScreenResource } from './types';
import { LIST_PARAMS, listQuery } from './listQuery';
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
            {def.screen?.kind === 'list' && <FirstPage resource={resource} filter={def.screen.filter} />}
            <Loaded loader={loadScreen} props={{ def, entity, resource, seller, buyer }} fallback={<Loading />} />
          </RouteGuard>
        );
      },
    }));
  });
}

/**
 * Asks for a list's first page as its route opens (once access is granted), before the screen's
 * code and first drawing, which took 100–300 ms before the list's own query left. The list then
 * finds it in the query cache (same key). A link with a search (`?q=`) is left to the list.
 */
function FirstPage(props: { resource: string; filter?: object }) {
  return new URLSearchParams(useLocation().search).has('q') ? null : <PrefetchFirstPage {...props} />;
}
function PrefetchFirstPage({ resource, filter = {} }: { resource: string; filter?: object }) {
  usePrefetchQuery(listQuery(useDataProvider(), resource, { pagination: { page: 1, perPage: LIST_PARAMS.perPage }, sort: LIST_PARAMS.sort, filter }));
  return null;
}

/**
 * The code every list screen needs, to fetch while the browser is idle after signing in: the generic
 * screen and the declared cells' components. Opening a list from the sidebar then waits for its rows
 * only, not for its code (a first visit fetched some thirty files one after the other).
 */
export function screenLoaders(registry: Registry<ScreenResource>): (() => Promise<unknown>)[] {
  const cells = registry.resources.flatMap((def) => (def.screen?.kind === 'list' ? def.screen.columns.flatMap((column) => (column.kind === 'custom' ? [column.component] : [])) : []));
  return [loadScreen, ...new Set(cells)];
}
