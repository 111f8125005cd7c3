/**
 * Adding an entity is one resource file: a throwaway entity declared in a fixture gets, with no other
 * change, its table, its save/list/status routes with the contract's rules (unique, ranges, dates),
 * its sidebar entry, its screen, and its rows in the authorization matrix.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRegistry, derivedKeyIndex } from '../../contract';
import { menuFor } from '../../authProvider';
import { registry as projectRegistry } from '../../server/registry';
import { toResources } from '../../src/screens/registry';
import type { ResourceDefinition } from '../../resources/types';
import coupons from './fixture/coupons';
import { demo, startServer, type TestServer } from './harness';
import { describeMatrix } from './matrix';

const registry = createRegistry<ResourceDefinition>([...(projectRegistry.resources as ResourceDefinition[]), coupons]);
let s: TestServer;
let admin: string;

beforeAll(async () => {
  s = await startServer({ registry });
  admin = await s.login(demo.admin.email, demo.admin.password);
});
afterAll(() => s.close());

describe('a resource file declares an entity', () => {
  it('gets its table and its save, list and status routes', async () => {
    const made = await s.post('/coupon', { code: 'WELCOME10', percent_off: 10, expires_at: '2026-12-31' }, admin);
    expect(made.body).toMatchObject({ status: true, query: 'Coupon created successfully', detail: { code: 'WELCOME10', is_active: 1 } });
    const id = made.body.detail.id;
    const list = await s.post('/coupons', { page: 1 }, admin);
    expect(list.body.HLL.data.map((r: { code: string }) => r.code)).toContain('WELCOME10');
    const off = await s.post('/coupon/status', { id, is_active: 0 }, admin);
    expect(off.body).toMatchObject({ status: true, detail: { is_active: 0 } });
    const found = await s.post('/search-dive', { keyIndex: derivedKeyIndex('coupons'), value: 'welcome', targets: ['code'] }, admin);
    expect(found.body.HLL.map((r: { id: number }) => r.id)).toEqual([id]);
    const gone = await s.post('/coupon/status', { id, tyype: 'clear' }, admin);
    expect(gone.body.query).toBe('Coupon deleted successfully');
  });

  it('keeps its unique, range and date rules', async () => {
    await s.post('/coupon', { code: 'SPRING', percent_off: 20, expires_at: '2027-03-01' }, admin);
    const twice = await s.post('/coupon', { code: 'spring', percent_off: 5, expires_at: '2027-03-01' }, admin);
    expect(twice.http).toBe(409);
    expect(twice.body.query).toBe("The code 'spring' is already used by another coupon");
    const bad = await s.post('/coupon', { code: 'AB', percent_off: 95, expires_at: '2027-02-30' }, admin);
    expect(bad.http).toBe(400);
    expect(bad.body.query).toBe(
      'code must be at least 3 characters; percent off must be at most 90; expires at must be a date such as 2026-12-31',
    );
  });

  it('gets its sidebar entry for an admin granted its token, and its screen', () => {
    const granted = { abilities: '[1,2,3]', granted_accesses: JSON.stringify(['coupons']) };
    expect(menuFor(granted, registry).map((e) => e.path)).toContain('/coupons');
    expect(menuFor({ abilities: '[1,2,3]', granted_accesses: '[]' }, registry).map((e) => e.path)).not.toContain('/coupons');
    expect(registry.assignable).toContain('coupons');
    expect(toResources(registry).map((r) => r.name)).toContain('coupons');
  });
});

describe('its rows in the authorization matrix', () => {
  describeMatrix(() => s, registry, [registry.entity('coupons')]);
});
