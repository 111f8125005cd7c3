/**
 * A field's limits are written once (contract KIND_LIMITS, narrowed by the field's own min/max) and
 * the server, its API document and its database agree on them. For a field of every kind left at its
 * kind's limits: a value at each limit is stored and answered whole, one past it is refused with a
 * readable message and never a 500 (the column holds whatever the server accepts, on SQLite and on
 * PostgreSQL), and the API document states the very limits the server enforces.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRegistry, d, e, i, j, limitsOf, n, s as str, t, type FieldSpec, type ResourceApi } from '../../contract';
import { FIELD_LIMITS } from '../../server/limits';
import { registry as projectRegistry } from '../../server/registry';
import { ADMIN, startServer, type TestServer } from './harness';

/** A throwaway entity (a name no product will use): one optional field of each kind, no limits of its own. */
const probe: ResourceApi = {
  name: 'limitProbes',
  title: 'Limit probe',
  menu: { token: 'limit-probes', path: '/limit-probes', order: 1000 },
  api: {
    save: '/limit-probe', list: '/limit-probes', status: '/limit-probe/status', listShape: 'paginated',
    remove: 'tyype', activeAs: 'int', statusFields: [], rules: { read: 'admin', create: 'admin', update: 'admin' },
    fields: { a_string: str(), a_text: t(), an_email: e(), a_date: d(), an_int: i(), a_number: n(), a_json: j() },
  },
};
const registry = createRegistry([...projectRegistry.resources, probe]);

/** A JSON list of texts (each within a JSON field's longest text) whose encoding is `length` characters long. */
function jsonOfLength(length: number): string[] {
  const parts: string[] = [];
  let used = 2;
  while (used < length) {
    const comma = parts.length ? 1 : 0;
    const size = Math.min(length - used - comma - 2, FIELD_LIMITS.string);
    parts.push('x'.repeat(size));
    used += comma + 2 + size;
  }
  return parts;
}

/** A value of the field's kind this many characters long. */
function textOfLength(field: FieldSpec, length: number): string {
  if (field.type === 'email') return `${'a'.repeat(length - 12)}@example.com`;
  if (field.type === 'date') return `2026-12-31T${'0'.repeat(length - 11)}`;
  return 'x'.repeat(length);
}

interface Edge {
  field: string;
  /** Accepted and answered as sent. */
  value: unknown;
  /** One past the limit, and the server's words for it. */
  past: unknown;
  refusal: string;
}

/** Both sides of each limit of each probe field, read from the one table. */
const edges: Edge[] = Object.entries(probe.api.fields).flatMap(([name, field]): Edge[] => {
  const what = name.replace(/_/g, ' ');
  const { maxLength, minimum, maximum } = limitsOf(field);
  if (field.type === 'json') {
    return [{ field: name, value: jsonOfLength(maxLength!), past: jsonOfLength(maxLength! + 1), refusal: `${what} is too large` }];
  }
  if (maxLength !== undefined) {
    return [{ field: name, value: textOfLength(field, maxLength), past: textOfLength(field, maxLength + 1), refusal: `${what} must be at most ${maxLength} characters` }];
  }
  return [
    { field: name, value: maximum, past: maximum! + 1, refusal: `${what} must be at most ${maximum}` },
    { field: name, value: minimum, past: minimum! - 1, refusal: `${what} must be at least ${minimum}` },
  ];
});

let s: TestServer;
let admin: string;
beforeAll(async () => {
  s = await startServer({ registry, demo: false });
  admin = (await s.userWith(ADMIN, [probe.menu!.token])).token;
});
afterAll(() => s.close());

describe('field limits, written once', () => {
  it('covers a field of every kind that has limits', () => {
    expect(new Set(edges.map((edge) => probe.api.fields[edge.field].type))).toEqual(new Set(['string', 'text', 'email', 'date', 'int', 'number', 'json']));
    for (const length of [20000, 20001]) expect(JSON.stringify(jsonOfLength(length))).toHaveLength(length);
  });

  it.each(edges.map((edge) => [edge.field, edge.refusal, edge] as const))('%s: takes the value at its limit, refuses one past it (%s)', async (field, refusal, edge) => {
    const stored = await s.post(probe.api.save, { [field]: edge.value }, admin);
    expect(stored.http).toBe(200);
    expect(stored.body.detail[field]).toEqual(edge.value);
    const row = await s.db.selectFrom(probe.name).select(field).where('id', '=', stored.body.detail.id).executeTakeFirstOrThrow();
    expect(probe.api.fields[field].type === 'json' ? JSON.parse(row[field] as string) : row[field]).toEqual(edge.value);

    const refused = await s.post(probe.api.save, { [field]: edge.past }, admin);
    expect(refused.http).toBe(400);
    expect(refused.body).toMatchObject({ status: false, query: refusal });
    const updated = await s.post(probe.api.save, { id: stored.body.detail.id, [field]: edge.past }, admin);
    expect(updated.body).toMatchObject({ status: false, query: refusal });
  });

  it('the API document states the limits the server enforces', async () => {
    const doc = await (await fetch(`${s.url}/openapi.json`)).json();
    const { properties } = doc.components.schemas.LimitProbesCreate;
    // A value as written; what the server also reads (a number as text, '' as none) follows in anyOf.
    const written = (property: Record<string, any>) => property.anyOf?.[0] ?? property;
    for (const edge of edges) {
      const schema = written(properties[edge.field]);
      const kind = probe.api.fields[edge.field].type;
      if (kind === 'json') expect(schema.description).toContain(`at most ${JSON.stringify(edge.value).length} characters once encoded`);
      else if (typeof edge.value === 'string') expect(schema.maxLength, edge.field).toBe(edge.value.length);
      else expect(schema[edge.refusal.includes('at most') ? 'maximum' : 'minimum'], edge.refusal).toBe(edge.value);
    }
  });
});
