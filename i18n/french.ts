/** react-admin's French strings with the console's French merged over them (loaded on first use). */
import frenchMessages from 'ra-language-french';
import type { TranslationMessages } from 'react-admin';
import { registry } from '../resources';
import { fr } from './fr';
import { withWords } from './resourceWords';

/** react-admin's French strings with the console's French, and the resource files' French words, merged over them. */
export const frenchMessagesAll: TranslationMessages = { ...frenchMessages, ...withWords(fr, registry.resources, 'fr') } as TranslationMessages;
