/**
 * Mail templates are Liquid (liquidjs, Shopify's language): variables, conditions and filters, no
 * code, no files (include and render find nothing), and time and size limits on every render. One
 * template gives a mail's subject, its plain text and its HTML: in the HTML every character of the
 * template and of every value is escaped, so neither an admin's text nor a customer's name becomes
 * markup; line breaks are kept. The console's preview and the server's mails render here alike.
 */
import { Liquid, type LiquidOptions } from 'liquidjs';
import { eventOf, type MailEvent } from './events';

export interface MailText {
  subject: string;
  message: string;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const SAFE: LiquidOptions = {
  strictFilters: true,
  strictVariables: true,
  ownPropertyOnly: true,
  templates: {},
  parseLimit: 100_000,
  renderLimit: 1_000,
  memoryLimit: 10_000_000,
};

// Values are marked as they are written, so the literal text around them can be escaped on its own.
const OPEN = '\u0001';
const CLOSE = '\u0002';
const MARKS = new RegExp(`[${OPEN}${CLOSE}]`, 'g');

export const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

const asText = (value: unknown): string => (Array.isArray(value) ? value.map(asText).join('') : value === null || value === undefined ? '' : String(value));

const plain = new Liquid(SAFE);
const marked = new Liquid({ ...SAFE, outputEscape: (value: unknown) => OPEN + escapeHtml(asText(value).replace(MARKS, '')) + CLOSE });

function toHtml(markedText: string): string {
  let out = '';
  let inValue = false;
  for (const part of markedText.split(new RegExp(`([${OPEN}${CLOSE}])`))) {
    if (part === OPEN) inValue = true;
    else if (part === CLOSE) inValue = false;
    else out += inValue ? part : escapeHtml(part);
  }
  return `<div style="font-family: sans-serif; line-height: 1.5">${out.replace(/\r?\n/g, '<br>\n')}</div>`;
}

/** Renders a template with these values; throws on a template that is not valid Liquid or names a variable not given. */
export function renderMail(template: MailText, values: Readonly<Record<string, unknown>>): RenderedMail {
  const scope = { ...values };
  const message = template.message.replace(MARKS, '');
  return {
    subject: plain.parseAndRenderSync(template.subject.replace(MARKS, ''), scope).replace(/\s*[\r\n]+\s*/g, ' ').trim(),
    text: plain.parseAndRenderSync(message, scope),
    html: toHtml(marked.parseAndRenderSync(message, scope)),
  };
}

const firstLine = (error: unknown) => String(error instanceof Error ? error.message : error).split('\n')[0];

/**
 * What is wrong with a template of this event, in words, or null: the subject and the message must
 * render with the event's sample values (valid Liquid, only its variables) and use what it requires.
 * A template of no event is checked as Liquid only.
 */
export function templateProblem(template: MailText, event: MailEvent | undefined): string | null {
  for (const part of ['subject', 'message'] as const) {
    try {
      if (event) plain.parseAndRenderSync(template[part], { ...event.variables });
      else plain.parse(template[part]);
    } catch (error) {
      return `The ${part} is not a valid template: ${firstLine(error)}`;
    }
  }
  const missing = (event?.requires ?? []).filter((name) => !new RegExp(`{{-?\\s*${name}\\b`).test(template.message));
  return missing.length ? `The message must use ${missing.map((name) => `{{ ${name} }}`).join(', ')}` : null;
}

/** The sample values of a template's event (none for a template of no event). */
export const samplesOf = (serial: unknown): Readonly<Record<string, string | number>> => eventOf(serial)?.variables ?? {};
