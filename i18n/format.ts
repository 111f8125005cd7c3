/**
 * Dates and numbers in the viewer's language: date-fns patterns and locales per language. English
 * keeps the formats the console always used (yyyy-MM-dd); French writes dates day first.
 */
import { enUS } from 'date-fns/locale/en-US';
import { fr } from 'date-fns/locale/fr';
import type { Locale as DateLocale } from 'date-fns';

/** date-fns's locale for a console language (month and day names, week start). */
export const dateLocale = (locale: string): DateLocale => (locale === 'fr' ? fr : enUS);

/** A timestamp with minutes, written the way the language writes it. */
export const dateTimePattern = (locale: string): string => (locale === 'fr' ? 'dd/MM/yyyy HH:mm' : 'yyyy-MM-dd HH:mm');

/** A day and a short month, for chart axes ('3 Nov' / '3 nov.'). */
export const dayMonthPattern = 'd MMM';
