// @vitest-environment jsdom
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import englishMessages from 'ra-language-english';
import frenchMessages from 'ra-language-french';
import { browserLocale, createI18nProvider, en, loadFrench } from '../../i18n';
import { fr } from '../../i18n/fr';
import { describeServerText, matchServerMessage, rememberServerWords } from '../../i18n/server';
import { formatCount, formatMoney } from '../../contract';
import { localDate } from '../../i18n/format';

type Tree = { [key: string]: unknown };

/** Every leaf of a messages tree as [dotted key, value]. */
const leaves = (tree: Tree, prefix = ''): [string, unknown][] =>
  Object.entries(tree).flatMap(([key, value]) =>
    value !== null && typeof value === 'object' ? leaves(value as Tree, `${prefix}${key}.`) : [[`${prefix}${key}`, value]],
  );

// French is loaded on first use in the console; these tests use it from the start.
beforeAll(async () => {
  await loadFrench();
});

const enLeaves = new Map(leaves(en));
const frLeaves = new Map(leaves(fr));

/**
 * French values that are rightly the same as the English ones: codes, marks, names and words
 * French shares with English. Anything else identical in both files is an untranslated string.
 */
const SAME_IN_FRENCH = new Set([
  'ID', 'CV', 'Code', 'OK', 'X', '>', '...', '—', '536', 'JPG, PNG.', 'Marketplace', 'Premier', 'Image', 'Image %{n}',
  'Description', 'description', 'Message', 'Messages', 'message', 'Total', 'Type', 'Nature', 'Qualification', 'qualification',
  'Catalogue', 'Action', 'Pages', 'Active', 'Inactive', 'commission(%)', 'image', 'Commission', 'Commission (%{currency})', 'Date', 'PayPal', 'Commissions',
]);

const placeholders = (text: string) => [...text.matchAll(/%\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('French: i18n/fr.ts against i18n/en.ts', () => {
  it('has every English key, and no key English lacks', () => {
    const missing = [...enLeaves.keys()].filter((key) => !frLeaves.has(key));
    const extra = [...frLeaves.keys()].filter((key) => !enLeaves.has(key));
    expect({ missing, extra }).toEqual({ missing: [], extra: [] });
  });

  it('translates every string (only the listed codes and shared words stay as in English)', () => {
    const untranslated = [...frLeaves].filter(([key, value]) => enLeaves.get(key) === value && !SAME_IN_FRENCH.has(String(value)));
    expect(untranslated.map(([key]) => key)).toEqual([]);
  });

  it('keeps every placeholder and every plural form of the English', () => {
    const wrong = [...frLeaves]
      .filter(([key]) => enLeaves.has(key))
      .filter(([key, value]) => {
        const english = String(enLeaves.get(key));
        const french = String(value);
        return (
          typeof value !== 'string' ||
          french.trim() === '' ||
          placeholders(english).join() !== placeholders(french).join() ||
          // French may add plural forms where English has none ('semaine |||| semaines'), never lose any.
          (english.includes('||||') && english.split('||||').length !== french.split('||||').length)
        );
      })
      .map(([key]) => key);
    expect(wrong).toEqual([]);
  });

  it("has react-admin's own strings in French for every English one", () => {
    const french = new Map(leaves(frenchMessages as unknown as Tree));
    const missing = leaves(englishMessages as unknown as Tree)
      .map(([key]) => key)
      .filter((key) => !french.has(key));
    expect(missing).toEqual([]);
  });

  it('translates through the provider, react-admin strings included', () => {
    const t = createI18nProvider('fr').translate;
    expect(t('menu.shops')).toBe('Boutiques');
    expect(t('dashboard.welcome', { name: 'Awa' })).toBe('Bienvenue, Awa');
    expect(t('ra.action.save')).toBe('Enregistrer');
    expect(t('ra.validation.required')).toBe('Ce champ est requis');
    expect(t('resources.shops.name', { smart_count: 2 })).toBe('Boutiques');
  });
});

describe("The server's answers in the viewer's language", () => {
  let french: ReturnType<typeof createI18nProvider>['translate'];
  let english: ReturnType<typeof createI18nProvider>['translate'];
  beforeAll(async () => {
    await loadFrench();
    french = createI18nProvider('fr').translate;
    english = createI18nProvider('en').translate;
  });

  it('shows a known answer translated in French, with its parts carried over', () => {
    expect(french('Shop created successfully')).toBe('Boutique : création réussie');
    expect(french('Template updated successfully')).toBe('Modèle : modification enregistrée');
    expect(french('Order status status updated successfully')).toBe('Statut de commande : statut mis à jour');
    expect(french('Order status updated successfully')).toBe('Commande : statut mis à jour');
    expect(french('Too many attempts; please wait 42 seconds and try again')).toBe(
      'Trop de tentatives ; veuillez patienter 42 secondes puis réessayer',
    );
    expect(french('street name is required')).toBe('Le champ « street name » est obligatoire');
    // The stock rule's cap, with and without what the buyer already holds.
    expect(french('You can hold at most 10 of Lamp 3 in unpaid orders')).toBe('Vous pouvez réserver au plus 10 Lamp 3 dans des commandes impayées');
    expect(french('You can hold at most 10 of Lamp 3 in unpaid orders (your unpaid orders already hold 9)')).toBe(
      'Vous pouvez réserver au plus 10 Lamp 3 dans des commandes impayées (vos commandes impayées en réservent déjà 9)',
    );
  });

  it('leaves English answers and unknown texts as the server sent them', () => {
    expect(english('Shop created successfully')).toBe('Shop created successfully');
    expect(english('Order status status updated successfully')).toBe('Order status status updated successfully');
    expect(french('Something nobody translated')).toBe('Something nobody translated');
  });

  it("words a text by the key its answer named, even one no template matches (a back end's own English)", () => {
    const said = 'Lamp: 3 left, sorry';
    expect(french(said)).toBe(said);
    rememberServerWords(said, [{ key: 'server.stock_left', values: { count: '3', name: 'Lamp' } }]);
    expect(french(said)).toBe(fr.server.stock_left.replace('%{count}', '3').replace('%{name}', 'Lamp'));
    // The record's name of a named key goes through server.titles, as a matched one does.
    rememberServerWords('Saved it!', [{ key: 'server.created', values: { title: 'Shop' } }]);
    expect(french('Saved it!')).toBe('Boutique : création réussie');
    // A key the console does not know: the text as sent.
    rememberServerWords('Something new', [{ key: 'server.not_in_this_console', values: {} }]);
    expect(french('Something new')).toBe('Something new');
  });

  it('words each of the texts a refusal joins', () => {
    expect(french('name is required; type is required')).toBe('Le champ « name » est obligatoire; Le champ « type » est obligatoire');
    expect(describeServerText('name is required; type is required')).toEqual([
      { key: 'server.required', values: { field: 'name' } },
      { key: 'server.required', values: { field: 'type' } },
    ]);
    expect(describeServerText('name is required; whatever else')).toBeNull();
    // A value the client sent may hold the joiner: the whole text then matches one template.
    expect(describeServerText('Cannot filter on name; drop table brands')).toEqual([
      { key: 'server.filter_field', values: { field: 'name; drop table brands' } },
    ]);
  });

  it('matches only whole texts', () => {
    expect(matchServerMessage('Shop created successfully!')).toBeNull();
    expect(matchServerMessage('Signed in successfully')).toEqual({ key: 'server.signed_in', values: {} });
  });

  it('words each template as the server does (every fixed part is in the server source)', () => {
    const sources = (dir: string): string[] =>
      fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
        const full = path.join(dir, entry.name);
        return entry.isDirectory() ? sources(full) : entry.name.endsWith('.ts') ? [fs.readFileSync(full, 'utf8')] : [];
      });
    // Resource folders hold rules the server runs too (a mail template's check).
    const server = [...sources('server'), ...sources('contract'), ...sources('resources')].join('\n');
    const unknown = Object.entries(en.server)
      .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
      .filter(([, template]) =>
        template
          .split(/%\{\w+\}/)
          .map((part) => part.replace(/%\{\w+\}/g, ''))
          .some((part) => part.trim() !== '' && !server.includes(part)),
      )
      .map(([key]) => key);
    expect(unknown).toEqual([]);
  });
});

describe('The language a first visit opens in', () => {
  it("is the browser's first language the console speaks, else English", () => {
    expect(browserLocale(['fr-CI', 'en'])).toBe('fr');
    expect(browserLocale(['de-DE', 'fr'])).toBe('fr');
    expect(browserLocale(['en-GB', 'fr'])).toBe('en');
    expect(browserLocale(['pt-BR'])).toBe('en');
    expect(browserLocale([])).toBe('en');
  });
});

describe('Amounts in the viewer\'s language', () => {
  it('keep SPEC §9.1 in English and follow French conventions in French', () => {
    expect(formatMoney(1234567.5, '$')).toBe('$1,234,567.50');
    expect(formatMoney(1234567.5, '$', 'en')).toBe('$1,234,567.50');
    expect(formatMoney(1234567.5, '₦', 'fr')).toBe('1\u202f234\u202f567,50\u00a0₦');
    expect(formatMoney(-5, null, 'fr')).toBe('-5,00\u00a0$');
    // The French formatter is kept between calls; its decimals are not those of counts.
    expect(formatCount(1234567, 'fr')).toBe('1\u202f234\u202f567');
    expect(formatMoney(1234567, '₦', 'fr')).toBe('1\u202f234\u202f567,00\u00a0₦');
  });

  it('write counts (a chart\'s axis) with the same separators, without decimals', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(999, 'en')).toBe('999');
    expect(formatCount(1000, 'en')).toBe('1,000');
    expect(formatCount(1234567, 'en')).toBe('1,234,567');
    expect(formatCount(-1234, 'en')).toBe('-1,234');
    // Rounded first: what rounds to nothing has no sign.
    expect(formatCount(-0.4, 'en')).toBe('0');
    expect(formatCount(1234.6, 'en')).toBe('1,235');
    expect(formatCount(-0.4, 'fr')).toBe('0');
    expect(formatCount(999, 'fr')).toBe('999');
    expect(formatCount(1000, 'fr')).toBe('1\u202f000');
  });
});

describe('Dates in lists in the viewer\'s language', () => {
  it('writes ISO days and timestamps day first in French, and leaves English and other text alone', () => {
    expect(localDate('2026-11-22', 'fr')).toBe('22/11/2026');
    expect(localDate('2026-11-22', 'en')).toBe('2026-11-22');
    expect(localDate('2026-11-22 09:15:00', 'fr')).toBe('22/11/2026 09:15');
    expect(localDate('09:15-21/11/2026', 'fr')).toBe('09:15-21/11/2026');
    expect(localDate('TRK1030', 'fr')).toBe('TRK1030');
  });
});

describe('loading French', () => {
  it('opens in the language chosen before (react-admin\'s stored locale) over the browser\'s', async () => {
    const { initialLocale } = await import('../../i18n');
    localStorage.setItem('RaStore.locale', JSON.stringify('fr'));
    expect(initialLocale()).toBe('fr');
    localStorage.setItem('RaStore.locale', 'not json');
    expect(initialLocale()).toBe(browserLocale());
    localStorage.removeItem('RaStore.locale');
  });
});
