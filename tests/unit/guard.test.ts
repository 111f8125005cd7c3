/**
 * The one guard (DESIGN D6), alone: who each rule lets through and with which scope, the gate of a
 * call from its roles, the query narrowed to the caller's records, a seller's links to shops, and who
 * may manage whom. Entities are written here by hand (the guard is generic); the resources' own
 * rules are held by tests/integration/accessTable.test.ts.
 */
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { CallRole, EntityContract, Rule } from '../../contract';
import { callerOf, type Caller } from '../../server/auth';
import type { DB } from '../../server/db';
import { ApiError } from '../../server/errors';
import { authorize, authorizeRead, callGate, checkOwnLinks, ensureMayManage, narrowed, rolesOf, scoped, type Scope } from '../../server/guard';

const entity = (over: Partial<EntityContract> = {}): EntityContract => ({
  name: 'things', title: 'Thing', access: 'things', save: '/thing', list: '/things', status: '/thing/status', listShape: 'paginated',
  remove: 'tyype', activeAs: 'int', statusFields: [], fields: {}, rules: { read: 'admin', create: 'admin', update: 'admin' }, ...over,
});
const owned = (via: 'owner_id' | 'shop_id', over: Partial<EntityContract> = {}) => entity({ owner: { access: 'my-things', via }, ...over });

const buyer = callerOf({ id: 11, abilities: '[1]', granted_accesses: '["things"]' });
const seller = callerOf({ id: 12, abilities: '[1,2]', granted_accesses: '["things"]' });
const admin = callerOf({ id: 13, abilities: '[1,2,3]', granted_accesses: '["things","users"]' });
const partial = callerOf({ id: 14, abilities: '[1,2,3]', granted_accesses: '["users"]' });

/** What a check answers: 'ok' with its value, or the refusal's status and words. */
function outcome<T>(check: () => T): T | { status: number; query: string } {
  try {
    return check();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { status: error.statusCode, query: error.message };
  }
}
const SIGN_IN = { status: 401, query: 'Please sign in to continue' };
const NOT_AVAILABLE = { status: 403, query: 'This operation is not available' };
const ADMINS_ONLY = { status: 403, query: 'This section is only available to administrators' };
const NOT_GRANTED = { status: 403, query: 'Your account has not been granted access to this section' };

describe('authorize: a rule and a caller give a scope or a refusal', () => {
  const callers: [string, Caller | null][] = [['anonymous', null], ['buyer', buyer], ['seller', seller], ['admin', admin], ['partial admin', partial]];
  const table: Record<Rule, Record<string, Scope | { status: number; query: string }>> = {
    public: { anonymous: { kind: 'all' }, buyer: { kind: 'all' }, seller: { kind: 'all' }, admin: { kind: 'all' }, 'partial admin': { kind: 'all' } },
    user: { anonymous: SIGN_IN, buyer: { kind: 'all' }, seller: { kind: 'all' }, admin: { kind: 'all' }, 'partial admin': { kind: 'all' } },
    owner: { anonymous: SIGN_IN, buyer: ADMINS_ONLY, seller: { kind: 'own', userId: 12 }, admin: { kind: 'all' }, 'partial admin': { kind: 'own', userId: 14 } },
    admin: { anonymous: SIGN_IN, buyer: ADMINS_ONLY, seller: ADMINS_ONLY, admin: { kind: 'all' }, 'partial admin': NOT_GRANTED },
    none: { anonymous: NOT_AVAILABLE, buyer: NOT_AVAILABLE, seller: NOT_AVAILABLE, admin: NOT_AVAILABLE, 'partial admin': NOT_AVAILABLE },
  };
  for (const [rule, row] of Object.entries(table) as [Rule, (typeof table)[Rule]][]) {
    it.each(callers)(`${rule}: %s`, (name, caller) => {
      expect(outcome(() => authorize(rule, owned('owner_id'), caller))).toEqual(row[name]);
    });
  }

  it('owner without a seller variant is for the screen holders only', () => {
    expect(outcome(() => authorize('owner', entity(), seller))).toEqual(ADMINS_ONLY);
    expect(outcome(() => authorize('owner', entity(), partial))).toEqual(NOT_GRANTED);
    expect(outcome(() => authorize('owner', entity(), admin))).toEqual({ kind: 'all' });
  });
});

describe('authorizeRead: a buyer reads the records naming them', () => {
  const orders = owned('shop_id', { buyerKey: 'customer_id', rules: { read: 'owner', create: 'owner', update: 'owner' } });
  it('scopes a buyer to their key, a seller to their own, an admin holding the screen to all', () => {
    expect(authorizeRead(orders, buyer)).toEqual({ kind: 'buyer', userId: 11, key: 'customer_id' });
    expect(authorizeRead(orders, seller)).toEqual({ kind: 'own', userId: 12 });
    expect(authorizeRead(orders, admin)).toEqual({ kind: 'all' });
    expect(outcome(() => authorizeRead(orders, null))).toEqual(SIGN_IN);
  });
  it('gives a buyer nothing without a buyer key, or when the read rule is not owner', () => {
    expect(outcome(() => authorizeRead(owned('shop_id', { rules: { read: 'owner', create: 'owner', update: 'owner' } }), buyer))).toEqual(ADMINS_ONLY);
    expect(outcome(() => authorizeRead({ ...orders, rules: { ...orders.rules, read: 'admin' } }, buyer))).toEqual(ADMINS_ONLY);
  });
});

describe('narrowed: a seller screen asked for by an admin', () => {
  it("keeps an admin's own records on an owned entity only when asked", () => {
    expect(narrowed({ kind: 'all' }, owned('owner_id'), admin, true)).toEqual({ kind: 'own', userId: 13 });
    expect(narrowed({ kind: 'all' }, owned('owner_id'), admin, false)).toEqual({ kind: 'all' });
    expect(narrowed({ kind: 'all' }, entity(), admin, true)).toEqual({ kind: 'all' });
    expect(narrowed({ kind: 'all' }, owned('owner_id'), null, true)).toEqual({ kind: 'all' });
    const own: Scope = { kind: 'own', userId: 12 };
    expect(narrowed(own, owned('owner_id'), seller, true)).toBe(own);
  });
});

describe('rolesOf: the API document says who a rule lets through', () => {
  it.each([
    ['public', false, ['anyone']],
    ['user', false, ['signed-in']],
    ['owner', false, ['admin', 'seller']],
    ['owner', true, ['admin', 'seller', 'signed-in']],
    ['admin', true, ['admin']],
    ['none', false, []],
  ] as const)('%s (read %s)', (rule, read, roles) => {
    expect(rolesOf(rule, entity({ buyerKey: 'customer_id' }), read)).toEqual(roles);
  });
  it('an owner read without a buyer key is for admins and sellers, as is any owner rule not said to be a read', () => {
    expect(rolesOf('owner', entity(), true)).toEqual(['admin', 'seller']);
    expect(rolesOf('owner', entity({ buyerKey: 'customer_id' }))).toEqual(['admin', 'seller']);
  });
});

describe('callGate: a call from its roles', () => {
  const run = (roles: CallRole[], caller: Caller | null, access?: string) => outcome(() => callGate({ roles, access })(caller, {}) ?? 'ok');
  it('lets anyone through an open call, any signed-in user through a signed-in one, nobody through none', () => {
    expect(run(['anyone'], null)).toBe('ok');
    expect(run(['signed-in'], null)).toEqual(SIGN_IN);
    expect(run(['signed-in'], buyer)).toBe('ok');
    expect(run([], admin)).toEqual(NOT_AVAILABLE);
    expect(run([], null)).toEqual(NOT_AVAILABLE);
  });
  it('refuses other roles with words naming who may call', () => {
    expect(run(['admin'], seller)).toEqual(ADMINS_ONLY);
    expect(run(['seller'], buyer)).toEqual({ status: 403, query: 'This section is only available to sellers' });
    expect(run(['seller'], admin)).toEqual({ status: 403, query: 'This section is only available to sellers' });
    expect(run(['seller', 'admin'], buyer)).toEqual({ status: 403, query: 'This section is only available to sellers and administrators' });
    expect(run(['admin', 'seller'], buyer)).toEqual({ status: 403, query: 'This section is only available to sellers and administrators' });
    expect(run(['seller', 'admin'], seller)).toBe('ok');
  });
  it("needs an admin call's access token, except where sellers may call too", () => {
    expect(run(['admin'], admin, 'things')).toBe('ok');
    expect(run(['admin'], partial, 'things')).toEqual(NOT_GRANTED);
    expect(run(['admin'], partial)).toBe('ok');
    expect(run(['seller', 'admin'], partial, 'things')).toBe('ok');
  });
  it('names its roles', () => {
    expect(callGate({ roles: ['seller', 'admin'] }).roles).toEqual(['seller', 'admin']);
  });
});

describe('scoped and checkOwnLinks, on a real database', () => {
  const sqlite = new Database(':memory:');
  sqlite.exec(`create table shops (id integer primary key, owner_id integer, seller_id integer, customer_id integer);
    insert into shops (id, owner_id, seller_id, customer_id) values (1, 12, 12, 11), (2, 99, 99, 12), (3, 12, 99, 99);`);
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: sqlite }) }) as unknown as DB;
  const ids = async (e: EntityContract, scope: Scope) =>
    (await scoped(db, db.selectFrom('shops').select('id').orderBy('id'), e, scope).execute()).map((r) => Number(r.id));

  it("narrows a list to the caller's records by owner, by the shop's owner, or by the buyer's key", async () => {
    expect(await ids(owned('owner_id'), { kind: 'all' })).toEqual([1, 2, 3]);
    expect(await ids(owned('owner_id'), { kind: 'own', userId: 12 })).toEqual([1, 3]);
    expect(await ids(owned('shop_id'), { kind: 'own', userId: 12 })).toEqual([1]);
    expect(await ids(entity(), { kind: 'own', userId: 12 })).toEqual([1, 2, 3]);
    expect(await ids(entity(), { kind: 'buyer', userId: 12, key: 'customer_id' })).toEqual([2]);
  });

  it("refuses a seller's record placed in another seller's shop, and lets every other case through", async () => {
    const own: Scope = { kind: 'own', userId: 12 };
    const refused = await checkOwnLinks(db, owned('shop_id'), { shop_id: 2 }, own).catch((e: ApiError) => ({ status: e.statusCode, query: e.message }));
    expect(refused).toEqual({ status: 403, query: 'You can only use your own shops' });
    await expect(checkOwnLinks(db, owned('shop_id'), { shop_id: '1' }, own)).resolves.toBeUndefined();
    await expect(checkOwnLinks(db, owned('shop_id'), { shop_id: 2 }, { kind: 'all' })).resolves.toBeUndefined();
    await expect(checkOwnLinks(db, owned('owner_id'), { shop_id: 2 }, own)).resolves.toBeUndefined();
    await expect(checkOwnLinks(db, owned('shop_id'), {}, own)).resolves.toBeUndefined();
    await expect(checkOwnLinks(db, entity(), { shop_id: 2 }, own)).resolves.toBeUndefined();
  });
});

describe('ensureMayManage: an admin manages only users not above them', () => {
  const MAY_NOT = { status: 403, query: 'You can only manage users whose accesses you hold yourself' };
  const check = (caller: Caller, target: Record<string, unknown>, self?: string) => outcome(() => ensureMayManage(caller, target, self) ?? 'ok');
  it('refuses oneself with the words given, and only when words are given', () => {
    expect(check(admin, { id: 13, abilities: '[1,2,3]', granted_accesses: '[]' }, 'Not yourself')).toEqual({ status: 403, query: 'Not yourself' });
    expect(check(admin, { id: 13, abilities: '[1,2,3]', granted_accesses: '[]' })).toBe('ok');
    expect(check(admin, { id: 1, abilities: '[1,2,3]', granted_accesses: '[]' }, 'Not yourself')).toBe('ok');
  });
  it('refuses a more privileged user or one holding an access the admin lacks; compares accesses without case', () => {
    expect(check(seller, { id: 1, abilities: '[1,2,3]', granted_accesses: '[]' })).toEqual(MAY_NOT);
    expect(check(partial, { id: 1, abilities: '[1,2]', granted_accesses: '["things"]' })).toEqual(MAY_NOT);
    expect(check(partial, { id: 1, abilities: '[1,2,3]', granted_accesses: '["USERS"]' })).toBe('ok');
    expect(check(admin, { id: 1, abilities: '[1,2,3]', granted_accesses: '["users","Things"]' })).toBe('ok');
    expect(check(seller, { id: 1, abilities: '[1,2]', granted_accesses: '[]' })).toBe('ok');
    expect(check(seller, { id: 1, abilities: '[1]', granted_accesses: '[]' })).toBe('ok');
  });
});
