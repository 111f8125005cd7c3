/**
 * No import circles: a module never imports, through others, a module that imports it, now or later
 * (`import('./x')` counts; `import type` is erased and does not). A circle makes what a module sees
 * at load depend on which side loaded first, and ties the two sides together for good.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../..');
const FOLDERS = ['contract', 'server', 'src', 'resources', 'dataProvider', 'authProvider', 'i18n', 'bench'];

const sources = (dir: string): string[] =>
  fs.existsSync(dir)
    ? fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
        const file = path.join(dir, entry.name);
        return entry.isDirectory() ? sources(file) : /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [file] : [];
      })
    : [];

/** The relative modules a source imports, when it loads or later (`import('./x')`); type-only imports left out. */
export function runtimeImports(text: string): string[] {
  const found: string[] = [];
  const statements = /(?:^|\n)\s*(import|export)\s+(type\s+)?([^;'"]*?)\s*from\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g;
  for (const m of text.matchAll(statements)) {
    if (m[5]) {
      found.push(m[5]);
      continue;
    }
    if (m[2]) continue;
    const names = m[3].replace(/^\{|\}$/g, '').trim();
    // `import { type A, type B } from` loads nothing either.
    if (names.startsWith('{') || m[3].includes('{')) {
      const inner = m[3].slice(m[3].indexOf('{') + 1, m[3].lastIndexOf('}'));
      const outer = m[3].slice(0, m[3].indexOf('{')).replace(/,\s*$/, '').trim();
      const parts = inner.split(',').map((p) => p.trim()).filter(Boolean);
      if (!outer && parts.length && parts.every((p) => p.startsWith('type '))) continue;
    }
    found.push(m[4]);
  }
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(m[1]);
  return found.filter((spec) => spec.startsWith('.'));
}

function resolve(from: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** The circles of a graph (Tarjan's strongly connected components of more than one module, or a self-import). */
export function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let index = 0;
  const indexes = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (node: string) => {
    indexes.set(node, index);
    low.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indexes.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, indexes.get(next)!));
    }
    if (low.get(node) === indexes.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) out.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!indexes.has(node)) visit(node);
  return out;
}

describe('import circles', () => {
  it('reads the imports that run, and finds a circle', () => {
    expect(runtimeImports("import { a } from './a';\nimport type { B } from './b';\nimport { type C } from './c';\nexport { d } from './d';\nimport './e';\nconst f = () => import('./f');"))
      .toEqual(['./a', './d', './e', './f']);
    expect(circles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]))).toEqual([['a', 'b', 'c']]);
    expect(circles(new Map([['a', ['b']], ['b', []]]))).toEqual([]);
  });

  it('the code base has none', () => {
    const files = FOLDERS.flatMap((folder) => sources(path.join(ROOT, folder)));
    const graph = new Map(
      files.map((file) => [
        path.relative(ROOT, file),
        runtimeImports(fs.readFileSync(file, 'utf8')).flatMap((spec) => {
          const target = resolve(file, spec);
          return target ? [path.relative(ROOT, target)] : [];
        }),
      ]),
    );
    expect(circles(graph)).toEqual([]);
  });
});
