/**
 * Dates and numbers in the viewer's language: date-fns patterns and locales per language. English
 * keeps the formats the console always used (yyyy-MM-dd); French writes dates day first.
 */
import { enUS } from 'date-fns/locale/en-US';
import { fr } from 'date-fns/locale/fr';
import { format, parseISO, type Locale as DateLocale } from 'date-fns';

/** date-fns's locale for a console language (month and day names, week start). */
export const dateLocale = (locale: string): DateLocale => (locale === 'fr' ? fr : enUS);

/** A timestamp with minutes, written the way the language writes it. */
export const dateTimePattern = (locale: string): string => (locale === 'fr' ? 'dd/MM/yyyy HH:mm' : 'yyyy-MM-dd HH:mm');

/** A day and a short month, for chart axes ('3 Nov' / '3 nov.'). */
export const dayMonthPattern = 'd MMM';

/** A day or a timestamp that travels as ISO text ('2026-11-22', '2026-11-22T09:15:00Z'). */
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * A value shown in a list or a table, with its dates in the viewer's language: an ISO day or
 * timestamp is written day first in French ('22/11/2026', '22/11/2026 09:15'); in English, and for
 * any other text, the value is shown as it is.
 */
export function localDate(text: string, locale: string): string {
  if (locale !== 'fr') return text;
  if (ISO_DAY.test(text)) return format(parseISO(text), 'dd/MM/yyyy');
  if (ISO_TIME.test(text)) {
    const date = new Date(text.replace(' ', 'T'));
    return Number.isNaN(date.getTime()) ? text : format(date, dateTimePattern(locale));
  }
  return text;
}
