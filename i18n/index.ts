import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import type { I18nProvider, TranslationMessages } from 'react-admin';
import { registry } from '../resources';
import { en } from './en';
import { withWords } from './resourceWords';
import { JOINER, serverWordsOf, type ServerMatch } from './server';

export { en };
export type { Messages } from './en';

/** react-admin's English strings with the console's own strings, and the resource files' words, merged over them. */
export const messages: TranslationMessages = { ...englishMessages, ...withWords(en, registry.resources, 'en') };

/**
 * French (react-admin's strings with the console's merged over them) is loaded on first use, so an
 * English first page does not carry it; a French one loads it before the first render (preloadLocale).
 */
let french: TranslationMessages | undefined;
export const loadFrench = async (): Promise<TranslationMessages> => (french ??= (await import('./french')).frenchMessagesAll);

/** The languages of the console, as the language switch lists them (each named in itself). */
export const LOCALES = [
  { locale: 'en', name: 'English' },
  { locale: 'fr', name: 'Français' },
] as const;

export type Locale = (typeof LOCALES)[number]['locale'];

const isLocale = (value: unknown): value is Locale => LOCALES.some((l) => l.locale === value);

/**
 * The language a first visit opens in: the browser's first preferred language the console speaks,
 * else English. A choice made with the language switch is remembered (react-admin's store, key
 * 'locale') and wins over this from then on.
 */
export function browserLocale(languages?: readonly string[]): Locale {
  const preferred = languages ?? (typeof navigator === 'undefined' ? [] : navigator.languages?.length ? navigator.languages : [navigator.language]);
  for (const language of preferred) {
    const base = String(language ?? '').toLowerCase().split(/[-_]/)[0];
    if (isLocale(base)) return base;
  }
  return 'en';
}

const catalogue = (locale: string): TranslationMessages | Promise<TranslationMessages> =>
  locale === 'fr' ? (french ?? loadFrench()) : messages;

/** The language react-admin will open in: the one chosen before (its store), else the browser's. */
export function initialLocale(): Locale {
  try {
    const stored: unknown = JSON.parse(globalThis.localStorage?.getItem('RaStore.locale') ?? 'null');
    if (isLocale(stored)) return stored;
  } catch {
    // An unreadable stored choice counts as none.
  }
  return browserLocale();
}

/** Loads the messages of the language the console opens in, before its first render. */
export async function preloadLocale(locale: Locale = initialLocale()): Promise<void> {
  if (locale === 'fr') await loadFrench();
}

/** Marks the page's language for assistive technology and the browser (hyphenation, spelling). */
const markDocument = (locale: string) => {
  if (typeof document !== 'undefined') document.documentElement.lang = locale;
};

/**
 * The console's i18nProvider: polyglot over the catalogue of each language, plus the server's
 * texts: a message that is a known server answer (see server.ts) is shown translated.
 */
export function createI18nProvider(wanted: Locale = initialLocale()): I18nProvider {
  // The first language's messages must be at hand: French not loaded yet opens in English (the
  // stored choice then switches it as soon as French arrives).
  const initial: Locale = wanted === 'fr' && !french ? 'en' : wanted;
  const polyglot = polyglotI18nProvider(catalogue, initial, [...LOCALES]);
  markDocument(initial);
  /** One known server text in the current language, its record name (`title`) through `server.titles`; '' when the catalogue lacks its key. */
  const serverText = ({ key, values }: ServerMatch, options?: object) => {
    const carried = { ...values };
    if (carried.title) carried.title = polyglot.translate(`server.titles.${carried.title}`, { _: carried.title });
    return polyglot.translate(key, { ...options, ...carried, _: '' });
  };
  const translate: I18nProvider['translate'] = (key, options) => {
    if (typeof key === 'string' && key.includes(' ')) {
      const found = serverWordsOf(key);
      if (found) {
        const words = found.map((one) => serverText(one, options));
        if (words.every((word) => word !== '')) return words.join(JOINER);
      }
    }
    return polyglot.translate(key, options);
  };
  return {
    ...polyglot,
    translate,
    changeLocale: async (locale, options) => {
      await polyglot.changeLocale(locale, options);
      markDocument(locale);
    },
  };
}

export const i18nProvider = createI18nProvider();
