/**
 * The one guard every route passes through (DESIGN D6): deny by default, admin screens need the
 * admin role and the screen's access token, seller lists are scoped to the caller's own records.
 */
import type { EntityContract, Rule } from '../contract';
import type { Caller } from './auth';
import { SELLER_COLUMN, type DB, type Row } from './db';
import { forbidden, unauthorized } from './errors';
import type { SelectQueryBuilder } from 'kysely';

/**
 * 'all': every record; 'own': only the caller's (a seller, or an admin without the screen's token);
 * 'buyer': only the records naming the caller as their buyer (read only).
 */
export type Scope = { kind: 'all' } | { kind: 'own'; userId: number } | { kind: 'buyer'; userId: number; key: string };

export function requireCaller(caller: Caller | null): Caller {
  if (!caller) throw unauthorized();
  return caller;
}

export function authorize(rule: Rule, entity: EntityContract, caller: Caller | null): Scope {
  if (rule === 'public') return { kind: 'all' };
  if (rule === 'none') throw forbidden('This operation is not available');
  const who = requireCaller(caller);
  if (rule === 'user' || who.can(entity.access)) return { kind: 'all' };
  if (rule === 'owner' && entity.owner && who.role !== 'buyer') return { kind: 'own', userId: who.id };
  throw forbidden(
    who.role === 'admin' ? 'Your account has not been granted access to this section' : 'This section is only available to administrators',
  );
}

/** Who may read a list: as `authorize`, and a buyer reads the records naming them (the entity's buyerKey). */
export function authorizeRead(entity: EntityContract, caller: Caller | null): Scope {
  const { read } = entity.rules;
  if (read === 'owner' && entity.buyerKey && caller?.role === 'buyer' && !caller.can(entity.access)) {
    return { kind: 'buyer', userId: caller.id, key: entity.buyerKey };
  }
  return authorize(read, entity, caller);
}

/** A seller screen asked for by an admin who may see everything: their own records only. */
export function narrowed(scope: Scope, entity: EntityContract, caller: Caller | null, own: boolean | undefined): Scope {
  return own && scope.kind === 'all' && entity.owner && caller ? { kind: 'own', userId: caller.id } : scope;
}

/** Narrows a query on an entity's table to the records the scope allows. */
export function scoped<Q extends SelectQueryBuilder<Record<string, Record<string, unknown>>, string, object>>(
  _db: DB,
  query: Q,
  entity: EntityContract,
  scope: Scope,
): Q {
  if (scope.kind === 'buyer') return query.where(scope.key, '=', scope.userId) as Q;
  if (scope.kind === 'all' || !entity.owner) return query;
  if (entity.owner.via === 'owner_id') return query.where('owner_id', '=', scope.userId) as Q;
  // Records owned through their shop carry the shop's owner, kept by triggers (see db.ts).
  return query.where(SELLER_COLUMN, '=', scope.userId) as Q;
}

/** A seller may only place records in their own shops (entities owned through `shop_id`). */
export async function checkOwnLinks(db: DB, entity: EntityContract, values: Row, scope: Scope): Promise<void> {
  if (scope.kind !== 'own' || entity.owner?.via !== 'shop_id' || values.shop_id === undefined) return;
  const shop = await db
    .selectFrom('shops')
    .select('id')
    .where('id', '=', Number(values.shop_id))
    .where('owner_id', '=', scope.userId)
    .executeTakeFirst();
  if (!shop) throw forbidden('You can only use your own shops');
}
