/**
 * The registry, the contract and the words checked against the specification's tables typed by hand
 * (tests/spec.ts). Never derived from the registry: a rule or a name changed by mistake fails here.
 */
import { describe, expect, it } from 'vitest';
import { ORDER_STATUSES, hasAccess, isAlwaysAllowed, roleOf, MIN_PASSWORD_LENGTH } from '../../contract';
import { canAccessToken, menuFor } from '../../authProvider';
import { registry } from '../../resources';
import { en } from '../../i18n/en';
import { i18nProvider } from '../../i18n';
import { modalReducer, initialModalState, type ModalAction } from '../../src/dialog';
import {
  ADMIN_SIDEBAR, ERROR_WORDS, KEY_INDEXES, LIMITS, MENU_TOKENS, ORDER_STATUS_NAMES, ROLE_READINGS, SELLER_SIDEBAR,
  SENT_ABILITIES, isOrderedSubsequence,
} from '../spec';

const t = (key: string) => i18nProvider.translate(key);
const fullAdmin = { abilities: '[1,2,3]', granted_accesses: JSON.stringify(MENU_TOKENS) };
const seller = { abilities: '[1,2]', granted_accesses: '[]' };

describe('ordered subsequences', () => {
  it('accepts the same order with items between, refuses a swap or a missing item', () => {
    expect(isOrderedSubsequence(['a', 'x', 'b', 'c'], ['a', 'b', 'c'])).toBe(true);
    expect(isOrderedSubsequence(['a', 'c', 'b'], ['a', 'b', 'c'])).toBe(false);
    expect(isOrderedSubsequence(['a', 'b'], ['a', 'b', 'c'])).toBe(false);
  });
});

describe('SPEC §2.6 and §6.2: the sidebars and the menu tokens', () => {
  it("a full admin's sidebar shows the spec's entries, labelled as the spec spells them, in its order", () => {
    const entries = menuFor(fullAdmin);
    const tokens = entries.map((e) => e.token);
    expect(isOrderedSubsequence(tokens, MENU_TOKENS), tokens.join(', ')).toBe(true);
    const labels = entries.map((e) => t(`menu.${e.token}`));
    expect(isOrderedSubsequence(labels, ADMIN_SIDEBAR), labels.join(', ')).toBe(true);
  });

  it("the seller's sidebar starts with the spec's four entries, its own labels and paths", () => {
    const entries = menuFor(seller);
    expect(entries.slice(0, SELLER_SIDEBAR.length).map((e) => ({ label: t(`menu.seller.${e.token}`), path: e.path }))).toEqual(SELLER_SIDEBAR);
    // Nothing of the admin list reaches a seller.
    const adminOnly = MENU_TOKENS.filter((token) => !isAlwaysAllowed(token));
    for (const token of adminOnly) expect(canAccessToken(seller, token), token).toBe(false);
  });

  it("'my' and dashboard entries are always shown to admins and never assignable; every other spec token is assignable", () => {
    const always = MENU_TOKENS.filter((token) => token.includes('my') || token === 'dashboard');
    expect(always).toEqual(['dashboard', 'my-shops', 'my-products', 'my-orders']);
    for (const token of always) {
      expect(registry.assignable).not.toContain(token);
      expect(canAccessToken({ abilities: '[1,2,3]', granted_accesses: '[]' }, token), token).toBe(true);
    }
    for (const token of MENU_TOKENS.filter((tk) => !always.includes(tk))) {
      expect(registry.assignable, token).toContain(token);
      expect(canAccessToken({ abilities: '[1,2,3]', granted_accesses: '[]' }, token), token).toBe(false);
      expect(canAccessToken({ abilities: '[1,2,3]', granted_accesses: JSON.stringify([token.toUpperCase()]) }, token), token).toBe(true);
    }
  });

  it('compares granted accesses case-insensitively and never by substring', () => {
    expect(hasAccess('["Mile-Prices"]', 'mile-prices')).toBe(true);
    expect(hasAccess('["mile-prices"]', 'mile')).toBe(false);
  });
});

describe('SPEC §4.5: order status codes', () => {
  it('the contract names each code as the spec does', () => {
    expect(Object.fromEntries(ORDER_STATUSES.map((s) => [s.id, s.name]))).toEqual(ORDER_STATUS_NAMES);
  });

  it('the console shows each code with the spec name', () => {
    for (const [code, name] of Object.entries(ORDER_STATUS_NAMES)) expect(t(`resources.orders.choices.${code}`), code).toBe(name);
  });
});

describe('SPEC §6.1: the three readings of abilities agree with the one rule on what the product sends', () => {
  it.each([
    ['registration', SENT_ABILITIES.registration, 'seller'],
    ["'Admin'", SENT_ABILITIES.admin, 'admin'],
    ['any other choice', SENT_ABILITIES.other, 'buyer'],
  ] as const)('%s %j is a %s', (_what, abilities, role) => {
    expect(ROLE_READINGS.byLength([...abilities])).toBe(role);
    expect(ROLE_READINGS.bySum([...abilities])).toBe(role);
    expect(ROLE_READINGS.byValue([...abilities]) === 'admin').toBe(role === 'admin');
    expect(roleOf(abilities)).toBe(role);
    expect(roleOf(JSON.stringify(abilities))).toBe(role);
  });
});

describe('SPEC §9.4: search key indexes', () => {
  it.each(KEY_INDEXES.map((k) => [k.screen, k] as const))('%s', (_screen, { keyIndex, entity, columns }) => {
    const found = registry.byKeyIndex(keyIndex);
    expect(found?.name).toBe(entity);
    expect(found?.search?.targets).toContain('id');
    if (columns) expect([...found!.search!.targets].sort()).toEqual([...columns].sort());
  });
});

describe('SPEC §8 and §5: the error catalogue', () => {
  const words = new Set<string>();
  const collect = (value: unknown) => {
    if (typeof value === 'string') words.add(value);
    else if (value && typeof value === 'object') Object.values(value).forEach(collect);
  };
  collect(en);

  it.each(Object.entries(ERROR_WORDS).filter(([key]) => !['unknownModal', 'stateOutside', 'dispatchOutside'].includes(key)))(
    '%s is in the console’s words exactly',
    (_key, text) => {
      expect(words.has(text), text).toBe(true);
    },
  );

  it('the dialog refuses an unknown action with the spec words', () => {
    expect(() => modalReducer(initialModalState, { type: 'nope' } as unknown as ModalAction)).toThrow(new Error(ERROR_WORDS.unknownModal));
  });
});

describe('SPEC §9.3: limits', () => {
  it('the password minimum is 8', () => {
    expect(MIN_PASSWORD_LENGTH).toBe(LIMITS.minPassword);
  });
});
