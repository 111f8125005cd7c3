import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { s } from '../../contract';
import { registry, type ResourceDefinition } from '../../resources';
import { i18nProvider, messages } from '../../i18n';
import { missingWords, withWords } from '../../i18n/resourceWords';
import { menuLabelKey } from '../../src/layout/SidebarMenu';

const t = (key: string, options?: Record<string, unknown>) => i18nProvider.translate(key, options);

describe('i18n: console strings as the specification words them', () => {
  // The sidebars' labels are checked against SPEC §2.6 typed by hand in tests/unit/spec.test.ts.
  it('labels every sidebar entry, admin, seller and buyer', () => {
    for (const entry of registry.access) expect(t(`menu.${entry.token}`), entry.token).not.toBe(`menu.${entry.token}`);
    for (const token of [...registry.sellerTokens, ...registry.buyerTokens]) {
      const key = menuLabelKey(token, false);
      expect(t(key), token).not.toBe(key);
    }
  });

  it('holds the public pages’ strings (SPEC §2.2–2.4, §5)', () => {
    expect(t('auth.login.title')).toBe('Sign in to your account');
    expect(t('auth.login.credential_placeholder')).toBe('Email or Phone Number e.g +44xxx');
    expect(t('auth.show_password')).toBe('Show Password');
    expect(t('auth.login.forgot_password')).toBe('Forgot your password?');
    expect(t('auth.login.no_account')).toBe("I don't have an account");
    expect(t('auth.login.submit')).toBe('Sign in');
    expect(t('auth.register.title')).toBe('Create an account');
    expect(t('auth.register.name')).toBe('Full Name');
    expect(t('auth.register.email')).toBe('Email address');
    expect(t('auth.register.phone')).toBe('Phone Number');
    expect(t('auth.password')).toBe('Password');
    expect(t('auth.register.terms_link')).toBe('Terms and Conditions');
    expect(t('auth.register.submit')).toBe('Register');
    expect(t('auth.reset.title')).toBe('Reset password');
    expect(t('auth.reset.submit')).toBe('Reset');
    expect(t('validation.password_min')).toBe('Your password must be minimum 8 digits');
  });

  it('holds the shell strings (SPEC §2.5, §2.7, §2.9)', () => {
    expect(t('shell.logout')).toBe('logout');
    expect(t('shell.login')).toBe('Login');
    expect(t('shell.register')).toBe('Register');
    expect(t('not_found.title')).toBe('404!');
    expect(t('not_found.message')).toBe('The page is not found');
    expect(t('error_view.title')).toBe('An Error occurred');
    expect(t('dashboard.title')).toBe('Dashboard');
    expect(t('dashboard.welcome', { name: 'Ada' })).toBe('Welcome, Ada');
    expect(t('management.admin_only')).toBe('This is section is only visible to administrators');
    expect(t('management.seller')).toBe('This is section is visible to authorized person(s)');
  });

  it("keeps react-admin's own messages", () => {
    expect(t('ra.action.save')).toBe('Save');
  });
});

describe("i18n: every declared resource's words, in each language", () => {
  it('labels what each screen shows: sidebar entry, columns, inputs, options, choices, placeholders, format hints', async () => {
    const { frenchMessagesAll } = await import('../../i18n/french');
    const missing = registry.resources.flatMap((resource) => [
      ...missingWords(resource, messages).map((key) => `en ${key}`),
      ...missingWords(resource, frenchMessagesAll).map((key) => `fr ${key}`),
    ]);
    expect(missing).toEqual([]);
  });

  it('finds a word a declaration lacks in one language', () => {
    const declared: ResourceDefinition = {
      name: 'wordless', title: 'Wordless', menu: { token: 'wordless', path: '/wordless', order: 1 },
      api: {
        save: '/wordless', list: '/wordlesss', status: '/wordless/status', listShape: 'array', remove: 'id', activeAs: 'int', statusFields: [],
        rules: { read: 'admin', create: 'admin', update: 'admin' },
        fields: { code: s({ pattern: { regex: '[A-Z]+', example: 'AB', hint: { en: 'capital letters', fr: 'des majuscules' } } }) },
      },
      words: { en: { menu: 'Wordless', fields: { is_active: 'Status', code: 'Code' } }, fr: { menu: 'Sans mots' } },
      // A status column is headed by its label too (the table, the column chooser, the CSV).
      screen: { kind: 'list', columns: [{ kind: 'status', source: 'is_active' }, { kind: 'text', source: 'code' }] },
    };
    expect(missingWords(declared, withWords({}, [declared], 'en'))).toEqual([]);
    expect(missingWords(declared, withWords({}, [declared], 'fr'))).toEqual(['resources.wordless.fields.is_active', 'resources.wordless.fields.code']);
    expect(withWords({}, [declared], 'fr')).toMatchObject({ menu: { wordless: 'Sans mots' }, resources: { wordless: { hints: { code: 'des majuscules' } } } });
  });

  it("takes the labels of a resource's other sidebar entries from its words, and finds one they lack", () => {
    const api: ResourceDefinition['api'] = {
      save: '/entried', list: '/entrieds', status: '/entried/status', listShape: 'array', remove: 'id', activeAs: 'int', statusFields: [],
      rules: { read: 'owner', create: 'owner', update: 'owner' }, buyerKey: 'buyer_id', fields: {},
    };
    const declared: ResourceDefinition = {
      name: 'entried', title: 'Entried', api,
      menu: { token: 'entried', path: '/entried', order: 1 },
      seller: { token: 'my-entried', path: '/my-entried', order: 2, via: 'owner_id' },
      buyer: { token: 'bought-entried', path: '/bought-entried', buyerOrder: 1 },
      sellerPages: [{ token: 'entried-report', path: '/entried-report', sellerOrder: 9 }],
      buyerPages: [{ token: 'entried-shelf', path: '/entried-shelf', buyerOrder: 2 }],
      words: {
        en: {
          menu: 'Entried',
          menus: { 'my-entried': 'My entried', 'bought-entried': 'Bought', 'entried-report': 'Report', 'entried-shelf': 'Shelf' },
        },
        fr: { menu: 'Entrées', menus: { 'my-entried': 'Mes entrées', 'bought-entried': 'Achetées', 'entried-report': 'Rapport' } },
      },
    };
    const english = withWords({}, [declared], 'en');
    expect(english).toMatchObject({ menu: { entried: 'Entried', 'my-entried': 'My entried', 'bought-entried': 'Bought', 'entried-shelf': 'Shelf' } });
    expect(missingWords(declared, english)).toEqual([]);
    expect(missingWords(declared, withWords({}, [declared], 'fr'))).toEqual(['menu.entried-shelf']);
  });

  it("finds a list filter's label or value a declaration lacks", () => {
    const declared: ResourceDefinition = {
      name: 'filtered', title: 'Filtered', menu: { token: 'filtered', path: '/filtered', order: 1 },
      api: {
        save: '/filtered', list: '/filtereds', status: '/filtered/status', listShape: 'array', remove: 'id', activeAs: 'int', statusFields: [],
        rules: { read: 'admin', create: 'admin', update: 'admin' }, fields: { kind: s() },
      },
      words: {
        en: { menu: 'Filtered', filters: { kind: 'Kind' }, choices: { big: 'big', small: 'small' } },
        fr: { menu: 'Filtré', choices: { big: 'grand' } },
      },
      screen: { kind: 'list', columns: [], filters: [{ kind: 'select', source: 'kind', choices: ['big', 'small'] }] },
    };
    expect(missingWords(declared, withWords({}, [declared], 'en'))).toEqual([]);
    expect(missingWords(declared, withWords({}, [declared], 'fr'))).toEqual(['resources.filtered.filters.kind', 'resources.filtered.choices.small']);
  });
});

describe('i18n: the translator\'s own code', () => {
  // node-polyglot (react-admin's translator) requires the es-shims polyfill of Object.entries, which
  // brought six more packages (16 kB) into every page's start; package.json's overrides put nolyfill's
  // drop-in, the function every supported browser has, in its place.
  it('uses the runtime\'s own Object.entries, not a polyfill', () => {
    const polyglotRequire = createRequire(createRequire(import.meta.url).resolve('node-polyglot'));
    expect(polyglotRequire('object.entries')).toBe(Object.entries);
  });
});
