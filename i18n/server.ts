/**
 * The server's answers in the viewer's language. The server speaks English on the wire (SPEC §8:
 * `query` texts are part of the contract) and, outside strict contract mode, names the `server.*`
 * key of each known text with its values in the envelope's `i18n` extension. Both come from one
 * catalogue, the English templates of `server.*` in en.ts: the server recognises its own text with
 * `describeServerText` below, and the console shows the key's words in its language (the server's
 * key when the answer carries one, else the same matching of `query`, for a legacy back end), and
 * an unknown text as it was sent.
 */
import { en } from './en';

export interface ServerMatch {
  key: string;
  values: Record<string, string>;
}

/** Known texts a `query` may join into one (a save refused for several fields). */
export const JOINER = '; ';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Each template of `server.*` (titles apart) as a pattern, in the order en.ts lists them: `strict`
 * values never span a joiner (so joined texts are told apart), `loose` ones may (a value the client
 * sent, such as a column name holding '; ').
 */
const compile = (loose: boolean) =>
  Object.entries(en.server)
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
    .map(([name, template]) => {
      const names: string[] = [];
      const source = template
        .split(/(%\{\w+\})/)
        .map((part) => {
          const placeholder = /^%\{(\w+)\}$/.exec(part);
          if (!placeholder) return escape(part);
          names.push(placeholder[1]);
          return loose ? '(.+?)' : `((?:(?!${escape(JOINER)}).)+?)`;
        })
        .join('');
      return { key: `server.${name}`, names, pattern: new RegExp(`^${source}$`, 's') };
    });
type Patterns = ReturnType<typeof compile>;
/** Compiled at the first text to match, not when the console's code loads (the sign-in page needs none). */
let compiled: { strict: Patterns; loose: Patterns } | undefined;
const patterns = (kind: 'strict' | 'loose') => (compiled ??= { strict: compile(false), loose: compile(true) })[kind];

function matchWith(kind: 'strict' | 'loose', text: string): ServerMatch | null {
  for (const { key, names, pattern } of patterns(kind)) {
    const found = pattern.exec(text);
    if (found) return { key, values: Object.fromEntries(names.map((name, i) => [name, found[i + 1]])) };
  }
  return null;
}

/** The `server.*` key and values a server text matches, or null. */
export const matchServerMessage = (text: string): ServerMatch | null => matchWith('strict', text) ?? matchWith('loose', text);

/**
 * The keys of a server text: one when the whole text is a template, one per part when it joins
 * known texts with '; ' (a save refused for several fields), null when any part is unknown.
 */
export function describeServerText(text: string): ServerMatch[] | null {
  if (text === '') return null;
  const whole = matchWith('strict', text);
  if (whole) return [whole];
  const parts = text.split(JOINER).map((part) => matchWith('strict', part));
  if (parts.length > 1 && parts.every((part): part is ServerMatch => part !== null)) return parts;
  const sent = matchWith('loose', text);
  return sent ? [sent] : null;
}

/** A well-formed `i18n` extension of an answer: the list of {key, values} of its `query`. */
export function isServerWords(value: unknown): value is ServerMatch[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every(
      (item) =>
        typeof item === 'object' && item !== null && typeof item.key === 'string' && item.key.startsWith('server.') &&
        typeof item.values === 'object' && item.values !== null && Object.values(item.values).every((v) => typeof v === 'string'),
    )
  );
}

/**
 * The keys the server named for its recent texts (the console shows a text by its text: the
 * notification carries the error's message), the newest last; a bounded memory.
 */
const named = new Map<string, ServerMatch[]>();
const NAMED_KEPT = 200;

/** Remembers the keys an answer named for its `query` (the dataProvider calls this for every answer). */
export function rememberServerWords(query: unknown, words: unknown): void {
  if (typeof query !== 'string' || query === '' || !isServerWords(words)) return;
  named.delete(query);
  named.set(query, words);
  if (named.size > NAMED_KEPT) named.delete(named.keys().next().value as string);
}

/** The keys of a text shown by the console: the ones its answer named, else the text matched against the templates. */
export const serverWordsOf = (text: string): ServerMatch[] | null => named.get(text) ?? describeServerText(text);
