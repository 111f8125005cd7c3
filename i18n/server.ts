/**
 * The server's answers in the viewer's language. The server speaks English on the wire (SPEC §8:
 * `query` texts are part of the contract); the console recognises a known text by the English
 * templates of `server.*` in en.ts and shows the translation of the matching key, carrying the
 * template's %{…} parts over. A text that matches no template is shown as the server sent it.
 */
import { en } from './en';

export interface ServerMatch {
  key: string;
  values: Record<string, string>;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Each template of `server.*` (titles apart) as a pattern, in the order en.ts lists them. */
const patterns = Object.entries(en.server)
  .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
  .map(([name, template]) => {
    const names: string[] = [];
    const source = template
      .split(/(%\{\w+\})/)
      .map((part) => {
        const placeholder = /^%\{(\w+)\}$/.exec(part);
        if (!placeholder) return escape(part);
        names.push(placeholder[1]);
        return '(.+?)';
      })
      .join('');
    return { key: `server.${name}`, names, pattern: new RegExp(`^${source}$`, 's') };
  });

/** The `server.*` key and values a server text matches, or null. */
export function matchServerMessage(text: string): ServerMatch | null {
  for (const { key, names, pattern } of patterns) {
    const found = pattern.exec(text);
    if (found) return { key, values: Object.fromEntries(names.map((name, i) => [name, found[i + 1]])) };
  }
  return null;
}

