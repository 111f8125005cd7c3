/**
 * Shared code names no entity: the generic screens, the dataProvider, the database's schema code, the
 * store, the generic routes and the seeding (reference and demo rows) read the registry; whatever one entity needs
 * sits in its resource file or folder, or in server/hooks/<entity>.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { registry } from '../../server/registry';

const ROOT = path.resolve(__dirname, '../..');
const SHARED = [
  'src/screens', 'dataProvider', 'server/db', 'server/store.ts', 'server/routes/entities.ts', 'server/seed.ts',
];
const files = (entry: string): string[] => {
  const full = path.join(ROOT, entry);
  return fs.statSync(full).isDirectory() ? fs.readdirSync(full).flatMap((name) => files(path.join(entry, name))) : /\.tsx?$/.test(entry) ? [entry] : [];
};
/** The code without its comments (a comment may give an example) and its imports (module paths). */
const code = (text: string) =>
  text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1').replace(/^\s*(import|export)\b[^;]*\bfrom\s*'[^']*';/gm, '');

export function namedEntities(text: string, names: readonly string[]): string[] {
  const body = code(text);
  return names.filter((name) => new RegExp(`['"\`/]${name}['"\`/]`).test(body));
}

describe('shared code names no entity', () => {
  const names = [...new Set([...registry.entities.map((e) => e.name), ...registry.access.map((a) => a.token).filter((t) => t !== 'dashboard')])];

  it('finds a name in code, not in a comment', () => {
    expect(namedEntities("const t = 'shops'; // 'orders'", ['shops', 'orders'])).toEqual(['shops']);
  });

  it.each(SHARED.flatMap(files))('%s', (file) => {
    expect(namedEntities(fs.readFileSync(path.join(ROOT, file), 'utf8'), names)).toEqual([]);
  });
});
