/**
 * What the global search searches (named route /search): every list screen with a search key the
 * user may open, the admin screen when they may use it, otherwise its seller variant (a seller
 * searches their own records) or its buyer variant (a buyer searches their purchases), in sidebar order.
 */
import type { Registry } from '../../contract';
import { canUse, type AccessProfile } from '../../authProvider/access';
import type { ScreenResource } from '../screens/types';

export interface SearchTarget {
  /** The console resource (route segment) searched and linked to. */
  resource: string;
  /** The sidebar token, for the group's label. */
  token: string;
}

export function searchTargets(profile: AccessProfile, registry: Registry<ScreenResource>): SearchTarget[] {
  const targets: (SearchTarget & { order: number })[] = [];
  for (const def of registry.resources) {
    if (def.screen?.kind !== 'list' || !registry.entity(def.name).search) continue;
    const buyer = def.buyer && { ...def.buyer, order: def.buyer.buyerOrder };
    const variants = [def.menu, def.seller, buyer].filter((v) => v !== undefined);
    const open = variants.find((v) => canUse(profile, v.path.slice(1), 'list', registry));
    if (open) targets.push({ resource: open.path.slice(1), token: open.token, order: open.order });
  }
  return targets.sort((a, b) => a.order - b.order).map(({ resource, token }) => ({ resource, token }));
}
