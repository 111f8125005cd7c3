/**
 * Adding an entity is one resource file: a throwaway entity declared in one fixture file (a unique
 * code with a format, a percentage from 1 to 90, a date, an optional note, the on/off switch, its
 * English and French words) gets, with no other change and on a database made before it existed,
 * its table and rows, its save/list/status routes with the contract's rules, its access for the full
 * admins (who can grant it), its sidebar entry and words in both languages, its screen, and its rows
 * in the authorization matrix.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ABILITIES, createRegistry, derivedKeyIndex, parseAccesses, patternProblem } from '../../contract';
import { menuFor } from '../../authProvider';
import { registry as projectRegistry } from '../../server/registry';
import { toResources } from '../../src/screens/registry';
import type { ResourceDefinition } from '../../resources/types';
import { en } from '../../i18n/en';
import { fr } from '../../i18n/fr';
import { missingWords, withWords } from '../../i18n/resourceWords';
import fixture from './fixture/fixtureVouchers';
import { demo, startServer, type TestServer } from './harness';
import { describeMatrix } from './matrix';

const registry = createRegistry<ResourceDefinition>([...(projectRegistry.resources as ResourceDefinition[]), fixture]);
const { save, list, status } = fixture.api;
const token = fixture.menu.token;
let s: TestServer;
let admin: string;

beforeAll(async () => {
  // The database is made by the project as it was, then the server starts again with the fixture added.
  s = await startServer({ before: projectRegistry, registry });
  admin = await s.login(demo.admin.email, demo.admin.password);
});
afterAll(() => s.close());

const voucher = (code: string, extra: Record<string, unknown> = {}) => ({ code, percent_off: 10, expires_at: '2026-12-31', ...extra });
const rowOf = (id: number) => s.db.selectFrom(fixture.name).selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('the fixture is one file', () => {
  it('and nothing outside the tests that read it names it', () => {
    const root = path.resolve(__dirname, '../..');
    const named: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        if (['node_modules', 'dist', 'build', 'data', '.git'].includes(entry.name)) continue;
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (/\.(ts|tsx|md)$/.test(entry.name) && fs.readFileSync(file, 'utf8').includes(fixture.name)) named.push(path.relative(root, file));
      }
    };
    for (const dir of ['contract', 'resources', 'server', 'src', 'i18n', 'dataProvider', 'authProvider', 'docs']) walk(path.join(root, dir));
    expect(named).toEqual([]);
    expect(fs.readdirSync(path.join(__dirname, 'fixture')).filter((f) => f.startsWith(fixture.name))).toEqual([`${fixture.name}.ts`]);
  });
});

describe('a resource file declares an entity, on a database made before it', () => {
  it('gets its table, its demo rows, and its save, list and status routes', async () => {
    const made = await s.post(save, voucher('WELCOME10'), admin);
    expect(made.body).toMatchObject({ status: true, query: 'Fixture voucher created successfully', detail: { code: 'WELCOME10', is_active: 1, note: null } });
    const id = made.body.detail.id;
    const rows = await s.post(list, { page: 1, per_page: 100 }, admin);
    const codes = rows.body.HLL.data.map((r: { code: string }) => r.code);
    expect(codes).toContain('WELCOME10');
    expect(codes).toEqual(expect.arrayContaining(fixture.rows.demo.map((r) => r.code)));
    const off = await s.post(status, { id, is_active: 0 }, admin);
    expect(off.body).toMatchObject({ status: true, detail: { is_active: 0 } });
    const found = await s.post('/search-dive', { keyIndex: derivedKeyIndex(fixture.name), value: 'welcome', targets: ['code'] }, admin);
    expect(found.body.HLL.map((r: { id: number }) => r.id)).toEqual([id]);
    const gone = await s.post(status, { id, tyype: 'clear' }, admin);
    expect(gone.body.query).toBe('Fixture voucher deleted successfully');
  });

  it('refuses a code without its format, with the format in words and its example', async () => {
    const bad = await s.post(save, voucher('spring-1'), admin);
    expect(bad.http).toBe(400);
    expect(bad.body).toMatchObject({ status: false, query: patternProblem('code', fixture.api.fields.code.pattern!) });
    expect(bad.body.query).toBe('code must be capital letters and digits, such as WELCOME10');
    expect((await s.post(save, voucher('SPRING1'), admin)).body.status).toBe(true);
  });

  it('keeps its unique (case-insensitively), range and date rules, on both sides of each limit', async () => {
    expect((await s.post(save, voucher('AUTUMN'), admin)).body.status).toBe(true);
    const twice = await s.post(save, voucher('AUTUMN'), admin);
    expect(twice.http).toBe(409);
    expect(twice.body.query).toBe("The code 'AUTUMN' is already used by another fixture voucher");
    const bad = await s.post(save, voucher('AB', { percent_off: 91, expires_at: '2027-02-30' }), admin);
    expect(bad.http).toBe(400);
    expect(bad.body.query).toBe(
      'code must be at least 3 characters; percent off must be at most 90; expires at must be a date such as 2026-12-31',
    );
    expect((await s.post(save, voucher('LOW', { percent_off: 0 }), admin)).body.query).toBe('percent off must be at least 1');
    for (const [code, percent] of [['EDGEONE', 1], ['EDGENINETY', 90]] as const) {
      expect((await s.post(save, voucher(code, { percent_off: percent }), admin)).body.status, code).toBe(true);
    }
  });

  it('compares its unique code case-insensitively', async () => {
    // The format admits capitals only, so a lower-case code can only be there from before (written directly).
    const stamp = new Date().toISOString();
    await s.db.insertInto(fixture.name).values({ ...voucher('winter5'), is_active: 1, created_at: stamp, updated_at: stamp }).execute();
    const twice = await s.post(save, voucher('WINTER5'), admin);
    expect(twice.http).toBe(409);
    expect(twice.body.query).toBe("The code 'WINTER5' is already used by another fixture voucher");
  });

  it('stores a cleared optional note as nothing (null)', async () => {
    const made = await s.post(save, voucher('NOTED', { note: 'For the spring sale' }), admin);
    const id = made.body.detail.id;
    expect((await rowOf(id)).note).toBe('For the spring sale');
    const cleared = await s.post(save, { id, note: '' }, admin);
    expect(cleared.body).toMatchObject({ status: true, detail: { note: null } });
    expect((await rowOf(id)).note).toBeNull();
  });

  it('reaches the full admins, who can grant it in Assign Roles; a partial admin gets it only so', async () => {
    const adminRow = await s.db.selectFrom('users').select(['id', 'granted_accesses']).where('email', '=', demo.admin.email).executeTakeFirstOrThrow();
    expect(parseAccesses(adminRow.granted_accesses)).toContain(token);
    const partial = await s.userWith(ADMIN_ABILITIES, ['shops']);
    expect((await s.post(list, { page: 1 }, partial.token)).http).toBe(403);
    const granted = await s.post('/user/assign-role', { id: partial.id, granted_accesses: ['shops', token] }, admin);
    expect(granted.http).toBe(200);
    expect((await s.post(list, { page: 1 }, partial.token)).http).toBe(200);
  });

  it('gets its sidebar entry for an admin granted its token, labelled in English and in French, and its screen', () => {
    const granted = { abilities: '[1,2,3]', granted_accesses: JSON.stringify([token]) };
    expect(menuFor(granted, registry).map((e) => e.path)).toContain(fixture.menu.path);
    expect(menuFor({ abilities: '[1,2,3]', granted_accesses: '[]' }, registry).map((e) => e.path)).not.toContain(fixture.menu.path);
    expect(registry.assignable).toContain(token);
    expect(toResources(registry).map((r) => r.name)).toContain(fixture.menu.path.slice(1));
    const english = withWords(en, registry.resources, 'en');
    const french = withWords(fr, registry.resources, 'fr');
    expect((english.menu as Record<string, unknown>)[token]).toBe('Fixture vouchers');
    expect((french.menu as Record<string, unknown>)[token]).toBe('Bons de test');
    expect(missingWords(fixture, english)).toEqual([]);
    expect(missingWords(fixture, french)).toEqual([]);
  });
});

describe('its rows in the authorization matrix', () => {
  describeMatrix(() => s, registry, [registry.entity(fixture.name)]);
});
