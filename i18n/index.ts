import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import type { TranslationMessages } from 'react-admin';
import { en } from './en';

export { en };
export type { Messages } from './en';

/** react-admin's English strings with the console's own strings merged over them. */
export const messages: TranslationMessages = { ...englishMessages, ...en };

export const i18nProvider = polyglotI18nProvider(() => messages, 'en', [
  { locale: 'en', name: 'English' },
]);
