/**
 * The endpoint × role authorization matrix, generated from a registry: every list, search, create,
 * update and status call of every served entity, called by each role, with the answer the guard
 * must give (DESIGN D6). Records the calls need are made from the contract's field list, so a new
 * entity needs no demo rows.
 */
import { describe, expect, it } from 'vitest';
import { limitsOf, type EntityContract, type FieldSpec, type Registry, type Rule } from '../../contract';
import type { Row } from '../../server/db';
import { ADMIN, demo, type TestServer } from './harness';

export type Role = 'anonymous' | 'buyer' | 'seller' | 'adminWithout' | 'admin';
type Op = 'list' | 'search' | 'create' | 'update' | 'status';
export const ROLES: Role[] = ['anonymous', 'buyer', 'seller', 'adminWithout', 'admin'];

/** The demo seller: owned records the seller role tries belong to somebody else. */
const DEMO_SELLER_ID = 2;

let counter = 0;

/** A value the contract accepts for a field (links are filled by `sampleRow`). */
export function sampleValue(name: string, field: FieldSpec): unknown {
  const n = ++counter;
  if (field.oneOf) return field.oneOf[0];
  if (field.pattern) return field.pattern.example;
  switch (field.type) {
    case 'email':
      return `sample${n}@example.com`;
    case 'string':
    case 'text': {
      const text = `Sample ${name} ${n}`;
      return text.slice(0, limitsOf(field).maxLength).padEnd(field.min ?? 0, 'x');
    }
    case 'int':
    case 'number':
      return field.min ?? 1;
    case 'bool':
      return 1;
    case 'json':
      return null;
    case 'date':
      return '2026-12-31';
  }
}

/** A row of an entity, its linked records made or found first; owned rows belong to the admin. */
export async function sampleRow(s: TestServer, registry: Registry, entity: EntityContract, adminId: number): Promise<Row> {
  const row: Row = {};
  for (const [name, field] of Object.entries(entity.fields)) {
    if (field.group && entity.fields[name] === undefined) continue;
    row[name] = sampleValue(name, field);
  }
  for (const rel of entity.relations ?? []) {
    if (rel.kind !== 'one' || !(rel.key in entity.fields)) continue;
    row[rel.key] = await recordOf(s, registry, registry.entity(rel.entity), adminId);
  }
  for (const [name, field] of Object.entries(entity.fields)) if (field.creator) row[name] = adminId;
  return row;
}

/** An id of a record of the entity that the demo seller does not own: found, or made. */
export async function recordOf(s: TestServer, registry: Registry, entity: EntityContract, adminId: number): Promise<number> {
  let q = s.db.selectFrom(entity.name).select('id').orderBy('id').limit(1);
  if (entity.owner) {
    const othersShops = s.db.selectFrom('shops').select('id').where('owner_id', '!=', DEMO_SELLER_ID);
    q = entity.owner.via === 'owner_id' ? q.where('owner_id', '!=', DEMO_SELLER_ID) : q.where('shop_id', 'in', othersShops);
  }
  const found = await q.executeTakeFirst();
  if (found) return Number(found.id);
  const stamp = new Date().toISOString();
  const values = { ...(await sampleRow(s, registry, entity, adminId)), created_at: stamp, updated_at: stamp };
  const made = await s.db.insertInto(entity.name).values(values).returning('id').executeTakeFirstOrThrow();
  return Number(made.id);
}

/** What the guard must answer: 'pass' (anything but 401/403), 401 or 403. */
function expected(rule: Rule, role: Role, entity: EntityContract, op: Op): 'pass' | 401 | 403 {
  if (rule === 'none') return 403;
  if (rule === 'public') return 'pass';
  if (role === 'anonymous') return 401;
  if (rule === 'user' || role === 'admin') return 'pass';
  // A buyer reads the records naming them as buyer (an order's customer_id), and changes none.
  if (rule === 'owner' && entity.buyerKey && role === 'buyer' && (op === 'list' || op === 'search')) return 'pass';
  if (rule === 'owner' && entity.owner && role !== 'buyer') {
    // Scoped to their own records: the record tried belongs to somebody else.
    return op === 'update' || op === 'status' ? 403 : 'pass';
  }
  return 403;
}

/** Entities with generic routes that somebody may call. */
export const servedBy = (registry: Registry) =>
  registry.entities.filter((e) => !e.ownRoutes && Object.values(e.rules).some((r) => r !== 'none'));

/**
 * Describes the matrix for a server started by `server()` (in the caller's beforeAll). Tokens for
 * every role and one record per entity are made on first use.
 */
export function describeMatrix(server: () => TestServer, registry: Registry, entities = servedBy(registry)) {
  const tokens: Partial<Record<Role, string | null>> = {};
  const ids: Record<string, number> = {};
  const prepare = async () => {
    const s = server();
    if (!('admin' in tokens)) {
      tokens.anonymous = null;
      tokens.buyer = await s.login(demo.buyer.email, demo.buyer.password);
      tokens.seller = await s.login(demo.seller.email, demo.seller.password);
      tokens.adminWithout = (await s.userWith(ADMIN, [])).token;
      tokens.admin = await s.login(demo.admin.email, demo.admin.password);
    }
    const admin = await s.db.selectFrom('users').select('id').where('email', '=', demo.admin.email).executeTakeFirstOrThrow();
    for (const e of entities) ids[e.name] ??= await recordOf(s, registry, e, Number(admin.id));
  };

  describe.each(entities.map((e) => [e.name, e] as const))('%s endpoints', (_name, entity) => {
    const calls: [Op, Rule, () => [string, Record<string, unknown>]][] = [
      ['list', entity.rules.read, () => [entity.list, { page: 1 }]],
      ['create', entity.rules.create, () => [entity.save, {}]],
      ['update', entity.rules.update, () => [entity.save, { id: ids[entity.name] }]],
    ];
    // An entity with no status field and no delete has no status call (it answers 404 to anyone).
    if (entity.statusFields.length || entity.remove !== 'none') {
      calls.push(['status', entity.rules.update, () => [entity.status, { id: ids[entity.name], is_active: 1 }]]);
    }
    if (entity.search) {
      calls.push(['search', entity.rules.read, () => ['/search-dive', { keyIndex: entity.search!.keyIndex, value: '', targets: ['id'] }]]);
    }
    it.each(calls.flatMap(([op, rule, make]) => ROLES.map((role) => [op, role, rule, make] as const)))(
      '%s as %s',
      async (op, role, rule, make) => {
        await prepare();
        const s = server();
        const [path, body] = make();
        const before = await s.db.selectFrom(entity.name).selectAll().orderBy('id').execute();
        const res = await s.post(path, body, tokens[role]);
        const want = expected(rule, role, entity, op);
        if (want === 'pass') {
          expect([401, 403]).not.toContain(res.http);
        } else {
          expect(res.http).toBe(want);
          expect(res.body).toMatchObject({ status: false, query: expect.stringMatching(/\w/), HLL: null });
          expect(await s.db.selectFrom(entity.name).selectAll().orderBy('id').execute()).toEqual(before);
        }
      },
    );
  });
}
