/** react-admin's French strings with the console's French merged over them (loaded on first use). */
import frenchMessages from 'ra-language-french';
import type { TranslationMessages } from 'react-admin';
import { fr } from './fr';

export const frenchMessagesAll: TranslationMessages = { ...frenchMessages, ...fr } as TranslationMessages;
