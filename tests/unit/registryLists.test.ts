/**
 * Tests read the registry: a list of the registry's tokens, labels or entity names spelled out in a
 * test file (beyond the specification's own lists, pinned once in tests/spec.ts) would have to be
 * edited by whoever adds an entity. This test finds such lists.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { registry } from '../../resources';
import { messages } from '../../i18n';

const ROOT = path.resolve(__dirname, '..');
/**
 * The files that may spell the specification's lists out: tests/spec.ts, and the authorization table
 * written by hand from SPEC §6 (role × entity × action), which must not be read from the registry it checks.
 */
const PINNED = new Set([path.join(ROOT, 'spec.ts'), path.join(ROOT, 'integration', 'accessTable.test.ts')]);
/** More registry names than this in one array literal is a copied list (a few named in a test are examples). */
const MOST = 5;

const menu = messages.menu as Record<string, unknown>;
const names = new Set<string>([
  ...registry.access.map((e) => e.token),
  ...registry.sellerPages.map((e) => e.token),
  ...registry.buyerEntries.map((e) => e.token),
  ...registry.resources.map((r) => r.name),
  ...registry.access.map((e) => menu[e.token]).filter((label): label is string => typeof label === 'string'),
]);

/** Array literals of a source text (not nested) and the quoted strings in each. */
export function copiedLists(text: string, known: ReadonlySet<string>, most = MOST): string[][] {
  const lists: string[][] = [];
  for (const [literal] of text.matchAll(/\[[^[\]]*\]/g)) {
    const items = [...literal.matchAll(/'([^'\n]*)'|"([^"\n]*)"/g)].map((m) => m[1] ?? m[2]);
    const named = items.filter((item) => known.has(item));
    if (named.length > most) lists.push(named);
  }
  return lists;
}

const testFiles = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    return entry.isDirectory() ? testFiles(file) : /\.tsx?$/.test(entry.name) && !PINNED.has(file) ? [file] : [];
  });

describe('tests read the registry', () => {
  it('finds a copied list, and lets a few names pass', () => {
    const known = new Set(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(copiedLists("const x = ['a', 'b', 'c', 'd', 'e', 'f'];", known)).toEqual([['a', 'b', 'c', 'd', 'e', 'f']]);
    expect(copiedLists("const x = ['a', 'b', 'c', 'd', 'e', 'zz'];", known)).toEqual([]);
  });

  it('no test file spells out a list of the registry’s tokens, labels or entities (tests/spec.ts pins the spec’s)', () => {
    const found = testFiles(ROOT).flatMap((file) =>
      copiedLists(fs.readFileSync(file, 'utf8'), names).map((list) => `${path.relative(ROOT, file)}: ${list.join(', ')}`),
    );
    expect(found).toEqual([]);
  });
});
