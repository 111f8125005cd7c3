/**
 * The registry of resource files: the console's (found by the bundler) and the server's (read from
 * the folder) are the same; every screen's resource appears in the sidebar for an admin holding its
 * token and nowhere else; every declaration type-checks against the unions (this file's compilation is
 * that check). That every label a screen shows has its words, in its file or in i18n/, in both
 * languages, is tests/unit/i18n.test.ts's.
 */
import { describe, expect, it } from 'vitest';
import { createRegistry, derivedKeyIndex, i, KIND_LIMITS, n, s, type FieldSpec, type ResourceApi } from '../../contract';
import { canUse, menuFor } from '../../authProvider';
import { registry } from '../../resources';
import { loadRegistry } from '../../server/registry';
import { messages } from '../../i18n';
import type { ResourceDefinition } from '../../resources/types';
import type { Field } from '../../src/screens/types';
import { compactLines } from '../../src/screens/CompactList';
import { SELLER_SIDEBAR } from '../spec';

const profile = (abilities: number[], granted: string[]) => ({ abilities: JSON.stringify(abilities), granted_accesses: JSON.stringify(granted) });
const paths = (p: ReturnType<typeof profile>) => menuFor(p).map((e) => e.path);
const admin = (granted: string[]) => profile([1, 2, 3], granted);
/** The sidebar's labels, the resource files' words merged in. */
const menuWords = messages.menu as Record<string, unknown>;

it('the console and the server find the same resource files', async () => {
  const server = await loadRegistry();
  expect(server.resources.map((r) => r.name)).toEqual(registry.resources.map((r) => r.name));
  expect(server.entities).toEqual(registry.entities);
  expect(server.access).toEqual(registry.access);
});

it('orders the sidebar and the assignable tokens as SPEC §2.6 and §6.2 do', () => {
  // SPEC §2.6's seller list comes first (tests/unit/spec.test.ts), then the seller's own pages (placed by
  // their sellerOrder among any other seller variant); those pages are neither in the admin list nor assignable.
  const pages = registry.sellerPages.map((p) => p.token);
  expect(pages.length).toBeGreaterThan(0);
  for (const page of pages) {
    expect(registry.sellerTokens.indexOf(page), page).toBeGreaterThanOrEqual(SELLER_SIDEBAR.length);
    expect(registry.access.map((a) => a.token)).not.toContain(page);
    expect(registry.assignable).not.toContain(page);
  }
  expect(registry.assignable).not.toContain('dashboard');
  expect(registry.assignable.some((t) => t.includes('my'))).toBe(false);
  // Every admin entry but the always-shown ones can be granted.
  expect(registry.assignable).toEqual(registry.access.map((a) => a.token).filter((t) => t !== 'dashboard' && !t.includes('my')));
});

it("gives buyers the dashboard, then the buyer entries in their order, none of them in the admin list or assignable", () => {
  const entries = registry.resources.flatMap((r) => [...(r.buyer ? [r.buyer] : []), ...(r.buyerPages ?? [])]);
  expect(entries.length).toBeGreaterThan(0);
  expect(registry.buyerTokens).toEqual(['dashboard', ...[...entries].sort((a, b) => a.buyerOrder - b.buyerOrder).map((e) => e.token)]);
  expect(menuFor(profile([1], [])).map((e) => e.token)).toEqual(registry.buyerTokens);
  for (const { token } of entries) {
    expect(registry.access.map((a) => a.token)).not.toContain(token);
    expect(registry.assignable).not.toContain(token);
    expect(registry.sellerTokens).not.toContain(token);
    expect(menuWords[token], token).toEqual(expect.any(String));
  }
  const noKey = { ...registry.resources.find((r) => r.buyer)!, name: 'bought', api: { ...registry.entity('orders'), buyerKey: undefined } };
  expect(() => createRegistry([noKey])).toThrow(/buyer variant without api.buyerKey/);
});

const screens = registry.resources.filter((r) => r.screen?.kind === 'list' && r.menu);

describe.each(screens.map((r) => [r.name, r] as const))('resource %s', (name, def) => {
  const route = def.menu!.path.slice(1);
  const token = def.menu!.token;
  const screen = def.screen!.kind === 'list' ? def.screen! : undefined;

  it('is the entity its route names', () => {
    expect(registry.screen(route)).toMatchObject({ entity: registry.entity(name), seller: false });
    expect(registry.access.find((a) => a.token === token)?.path).toBe(`/${route}`);
  });

  it('is in the sidebar of an admin holding its token, and of no one else', () => {
    expect(paths(admin([token]))).toContain(`/${route}`);
    expect(paths(admin(registry.assignable.filter((t) => t !== token)))).not.toContain(`/${route}`);
    expect(paths(profile([1, 2], [token]))).not.toContain(`/${route}`);
    expect(paths(profile([1], [token]))).not.toContain(`/${route}`);
  });

  if (def.seller) {
    it('has a seller variant in every seller sidebar and every admin sidebar', () => {
      const seller = def.seller!.path.slice(1);
      expect(registry.screen(seller)).toMatchObject({ entity: registry.entity(name), seller: true });
      expect(paths(profile([1, 2], []))).toContain(`/${seller}`);
      expect(paths(admin([]))).toContain(`/${seller}`);
      expect(paths(profile([1], []))).not.toContain(`/${seller}`);
    });
  }

  if (def.buyer) {
    it('has a buyer variant in the buyer sidebar only, read only, to buyers only', () => {
      const buyer = def.buyer!.path.slice(1);
      const buyers = profile([1], []);
      expect(registry.entity(name).buyerKey).toEqual(expect.any(String));
      expect(registry.screen(buyer)).toMatchObject({ entity: registry.entity(name), buyer: true });
      expect(paths(buyers)).toContain(`/${buyer}`);
      expect(paths(profile([1, 2], []))).not.toContain(`/${buyer}`);
      expect(paths(admin([...registry.assignable]))).not.toContain(`/${buyer}`);
      expect(canUse(buyers, buyer, 'list')).toBe(true);
      for (const action of ['create', 'edit', 'delete', 'status']) expect(canUse(buyers, buyer, action), action).toBe(false);
      // Sellers and admins read their own lists; a buyer variant is a buyer's.
      expect(canUse(profile([1, 2], []), buyer, 'list')).toBe(false);
      expect(canUse(admin([token]), buyer, 'list')).toBe(false);
      expect(menuWords[def.buyer!.token]).toEqual(expect.any(String));
    });
  }

  if (screen) {
    it('shows a phone a compact list of its own columns, with something on its first line', () => {
      const lines = compactLines(screen);
      expect(lines.primary.length).toBeGreaterThan(0);
      for (const column of [...lines.primary, ...lines.secondary, ...lines.tertiary]) expect(screen.columns).toContain(column);
    });
  }
});

describe('canUse: a button the server would refuse is never shown', () => {
  const seller = profile([1, 2], []);
  it('lets an admin holding the token create, edit, delete and export shops', () => {
    for (const action of ['list', 'create', 'edit', 'delete', 'status', 'export']) expect(canUse(admin(['shops']), 'shops', action)).toBe(true);
    expect(canUse(admin([]), 'shops', 'create')).toBe(false);
  });
  it('lets a seller act on My Shops but not on Shops, and never on categories', () => {
    expect(canUse(seller, 'my-shops', 'create')).toBe(true);
    expect(canUse(seller, 'my-shops', 'delete')).toBe(true);
    expect(canUse(seller, 'shops', 'list')).toBe(false);
    expect(canUse(seller, 'category', 'create')).toBe(false);
  });
  it('refuses creating where the contract has no create (update-only) and deleting where nothing is deleted', () => {
    expect(canUse(admin(['mail-templates']), 'mail-templates', 'create')).toBe(false);
    expect(canUse(admin(['mail-templates']), 'mail-templates', 'edit')).toBe(true);
    expect(canUse(admin(['orders']), 'orders', 'delete')).toBe(false);
  });
  it('opens a page to every signed-in user, or to those holding the token it names', () => {
    const buyer = profile([1], []);
    const open = registry.routes.filter((route) => route.token === undefined);
    expect(open.length).toBeGreaterThan(0);
    for (const route of open) expect(canUse(buyer, route.path.slice(1))).toBe(true);
    const named = registry.resources.flatMap((r) => (r.routes ?? []).filter((route) => route.access !== undefined));
    expect(named.length).toBeGreaterThan(0);
    for (const route of named) {
      expect(canUse(buyer, route.path.slice(1))).toBe(false);
      expect(canUse(seller, route.path.slice(1))).toBe(registry.sellerTokens.includes(route.access!));
    }
  });
});

describe('compactLines: the lines of a list on a phone', () => {
  const columns = [
    { kind: 'status', source: 'is_active' }, { kind: 'text', source: 'id' }, { kind: 'text', source: 'name' },
    { kind: 'text', source: 'city' }, { kind: 'text', source: 'zip' }, { kind: 'text', source: 'bank', hidden: true },
  ] as const;
  it('derives them: the first shown column but the id, the next two, and the status on the right', () => {
    expect(compactLines({ columns }).primary.map((c) => c.source)).toEqual(['name']);
    expect(compactLines({ columns }).secondary.map((c) => c.source)).toEqual(['city', 'zip']);
    expect(compactLines({ columns }).tertiary.map((c) => c.source)).toEqual(['is_active']);
    expect(compactLines({ columns: [columns[1]] }).primary.map((c) => c.source)).toEqual(['id']);
  });
  it('takes the declared ones, and refuses a source that is not a column', () => {
    const lines = compactLines({ columns, compact: { primary: ['id', 'name'], tertiary: ['zip'] } });
    expect([lines.primary, lines.secondary, lines.tertiary].map((l) => l.map((c) => c.source))).toEqual([['id', 'name'], [], ['zip']]);
    expect(() => compactLines({ columns, compact: { primary: ['nope'] } })).toThrow(/nope/);
  });
});

describe('createRegistry', () => {
  const base: ResourceApi = {
    // A name no product will use (resources/README.md's example is coupons, which a developer may add).
    name: 'sampleCoupons',
    title: 'Sample coupon',
    menu: { token: 'sample-coupons', path: '/sample-coupons', order: 5 },
    api: {
      save: '/sample-coupon', list: '/sample-coupons', status: '/sample-coupon/status', listShape: 'paginated', remove: 'tyype', activeAs: 'int',
      statusFields: ['is_active'], rules: { read: 'admin', create: 'admin', update: 'admin' }, fields: {}, search: { targets: ['id'] },
    },
  };
  it('derives a stable keyIndex for a new entity that names none', () => {
    const made = createRegistry([...registry.resources, base]);
    expect(made.entity('sampleCoupons').search?.keyIndex).toBe(derivedKeyIndex('sampleCoupons'));
    expect(made.byKeyIndex(derivedKeyIndex('sampleCoupons'))?.name).toBe('sampleCoupons');
    expect(made.access.map((a) => a.token)).toContain('sample-coupons');
    expect(made.assignable).toContain('sample-coupons');
  });
  it('refuses two files with one name, one keyIndex or one token', () => {
    expect(() => createRegistry([base, base])).toThrow(/same entity name/);
    const sameKey = { ...base, name: 'other', menu: { ...base.menu!, token: 'other' }, api: { ...base.api, search: { keyIndex: 10, targets: ['id'] } } };
    expect(() => createRegistry([...registry.resources, sameKey])).toThrow(/keyIndex 10/);
    expect(() => createRegistry([base, { ...base, name: 'twin' }])).toThrow(/access token sample-coupons/);
  });
  it("refuses a range its kind's column cannot hold, and a min above the max", () => {
    const withField = (field: FieldSpec) => ({ ...base, api: { ...base.api, fields: { value: field } } });
    const { minimum, maximum } = KIND_LIMITS.int;
    expect(createRegistry([withField(i({ min: minimum, max: maximum }))]).entity('sampleCoupons').fields.value.max).toBe(maximum);
    expect(() => createRegistry([withField(i({ max: maximum! + 1 }))])).toThrow(`sampleCoupons.value: ${maximum! + 1} is outside the int kind's range`);
    expect(() => createRegistry([withField(i({ min: minimum! - 1 }))])).toThrow(`sampleCoupons.value: ${minimum! - 1} is outside`);
    expect(() => createRegistry([withField(n({ max: KIND_LIMITS.number.maximum! * 10 }))])).toThrow(/is outside the number kind's range/);
    expect(() => createRegistry([withField(s({ min: 5, max: 4 }))])).toThrow('sampleCoupons.value: its min 5 is above its max 4');
  });
});

// Compile-time: a field kind with a property of another kind does not type-check.
// @ts-expect-error a text field has no choices
const wrong: Field = { kind: 'text', source: 'x', choices: ['a'] };
void wrong;
const _typed: ResourceDefinition[] = [...registry.resources];
void _typed;

describe('canUse on rules of every kind (a registry made here, not the resources)', () => {
  const def = (name: string, rules: ResourceApi['api']['rules'], order: number): ResourceApi => ({
    name, title: name, menu: { token: name, path: `/${name}`, order },
    seller: { token: `my-${name}`, path: `/my-${name}`, order, sellerOrder: order, via: 'owner_id' },
    api: { save: `/${name}`, list: `/${name}s`, status: `/${name}/status`, listShape: 'paginated', remove: 'tyype', activeAs: 'int', statusFields: [], rules, fields: {} },
  });
  const made = createRegistry([
    def('open', { read: 'public', create: 'user', update: 'admin' }, 1),
    def('owned', { read: 'owner', create: 'owner', update: 'owner' }, 2),
    def('closed', { read: 'none', create: 'admin', update: 'admin' }, 3),
  ]);
  const seller = profile([1, 2], []);
  const full = admin(['open', 'owned', 'closed']);
  it('lets a seller use their variant where the rule is open or theirs, never where it is an admin\'s', () => {
    expect(canUse(seller, 'my-open', 'list', made)).toBe(true);
    expect(canUse(seller, 'my-open', 'create', made)).toBe(true);
    expect(canUse(seller, 'my-open', 'edit', made)).toBe(false);
    expect(canUse(seller, 'my-owned', 'edit', made)).toBe(true);
    expect(canUse(seller, 'my-closed', 'list', made)).toBe(false);
  });
  it('reads a list by default, and lets an action without a rule follow the screen', () => {
    expect(canUse(full, 'closed', undefined, made)).toBe(false);
    expect(canUse(full, 'open', undefined, made)).toBe(true);
    expect(canUse(seller, 'my-open', 'approve', made)).toBe(true);
  });
  it('answers a token that names no screen by the token alone', () => {
    expect(canUse(admin([]), 'dashboard', 'list', made)).toBe(true);
    expect(canUse(admin([]), 'open', 'list', made)).toBe(false);
  });
});
