/**
 * The one guard every route passes through (DESIGN D6): deny by default, admin screens need the
 * admin role and the screen's access token, seller lists are scoped to the caller's own records.
 */
import { parseAccesses, roleOf, type CallRole, type CallSpec, type EntityContract, type Rule } from '../contract';
import type { Caller } from './auth';
import { SELLER_COLUMN, type DB, type Row } from './db';
import { forbidden, unauthorized } from './errors';
import type { SelectQueryBuilder } from 'kysely';

/**
 * 'all': every record; 'own': only the caller's (a seller, or an admin without the screen's token);
 * 'buyer': only the records naming the caller as their buyer (read only).
 */
export type Scope = { kind: 'all' } | { kind: 'own'; userId: number } | { kind: 'buyer'; userId: number; key: string };

/**
 * Who may call a route, answered before its body is read or checked (a caller of a refused role
 * learns nothing of the payload's rules): throws 401 or 403. Every API route has one: an entity's
 * operations take theirs from its rules, every other call from its roles in contract/calls.ts,
 * which the API document's x-roles are written from.
 */
export interface Gate {
  (caller: Caller | null, body: Record<string, unknown>): void;
  /** Who it lets through, as the API document's x-roles says. */
  roles: readonly CallRole[];
}

/** A gate and the roles it lets through. */
export const gate = (roles: readonly CallRole[], check: (caller: Caller | null, body: Record<string, unknown>) => void): Gate =>
  Object.assign(check, { roles });

/** Who a rule of an entity lets through, in the API document's words. */
export function rolesOf(rule: Rule, entity: EntityContract, read = false): CallRole[] {
  switch (rule) {
    case 'public':
      return ['anyone'];
    case 'user':
      return ['signed-in'];
    case 'owner':
      return read && entity.buyerKey ? ['admin', 'seller', 'signed-in'] : ['admin', 'seller'];
    case 'admin':
      return ['admin'];
    case 'none':
      return [];
  }
}

const ROLE_REFUSED: Record<string, string> = {
  seller: 'This section is only available to sellers',
  'seller admin': 'This section is only available to sellers and administrators',
  admin: 'This section is only available to administrators',
};

/** The gate of a call from its roles: anyone, any signed-in user, or the roles named (an admin holding `access`). */
export function callGate(call: Pick<CallSpec, 'roles' | 'access'>): Gate {
  const { roles, access } = call;
  return gate(roles, (caller) => {
    if (roles.includes('anyone')) return;
    if (roles.length === 0) throw forbidden('This operation is not available');
    const who = requireCaller(caller);
    if (roles.includes('signed-in')) return;
    if (!roles.includes(who.role as 'seller' | 'admin')) throw forbidden(ROLE_REFUSED[[...roles].sort().reverse().join(' ')]);
    if (who.role === 'admin' && access && !roles.includes('seller') && !who.can(access)) {
      throw forbidden('Your account has not been granted access to this section');
    }
  });
}

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
  // Records owned through their shop carry the shop's owner, kept by triggers (see db/triggers.ts).
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

const RANK = { buyer: 0, seller: 1, admin: 2 } as const;
const lower = (list: string[]) => list.map((t) => t.toLowerCase());

/**
 * The one rule of every call that changes another user (the Users screen's edits, blacklisting and
 * grants, a deletion request settled as 'Deleted'): an admin manages only users who are not more
 * privileged and whose granted accesses are a subset of the admin's own, so a partial admin can
 * never edit, blacklist, demote, re-grant or erase a fuller one. Oneself is refused with `self`
 * (each call says why: one's own account changes through one's own calls).
 */
export function ensureMayManage(caller: Caller, target: Row, self?: string): void {
  if (self !== undefined && Number(target.id) === caller.id) throw forbidden(self);
  const mine = lower(parseAccesses(caller.user.granted_accesses));
  const theirs = lower(parseAccesses(target.granted_accesses));
  if (RANK[roleOf(target.abilities)] > RANK[caller.role] || theirs.some((t) => !mine.includes(t))) {
    throw forbidden('You can only manage users whose accesses you hold yourself');
  }
}
