/**
 * The build marks the files every page runs at its start (the entry and the files it imports, at
 * any depth) for V8 to compile whole as they arrive, and only those: a screen's file, loaded later
 * and in part, is compiled as it is used.
 */
import { describe, expect, it } from 'vitest';
import type { Plugin } from 'vite';
import viteConfig from '../../vite.config';

const HINT = '//# allFunctionsCalledOnLoad\n';

type Chunk = { type: 'chunk'; isEntry: boolean; imports: string[]; dynamicImports: string[]; code: string; map?: { mappings: string } };
const chunk = (code: string, imports: string[] = [], more: Partial<Chunk> = {}): Chunk => ({ type: 'chunk', isEntry: false, imports, dynamicImports: [], code, ...more });

async function hinted<B extends Record<string, Chunk | { type: 'asset'; source: string }>>(bundle: B): Promise<B> {
  const config = await (viteConfig as (env: { command: 'build'; mode: string }) => { plugins: Plugin[] })({ command: 'build', mode: 'production' });
  const plugin = config.plugins.flat().find((p) => p.name === 'compile-hints');
  const hook = plugin?.generateBundle as unknown as { order: string; handler: (options: unknown, bundle: unknown) => void };
  // Last among the build's hooks: the hint must stay on the file's first line.
  expect(hook.order).toBe('post');
  hook.handler.call({}, {}, bundle);
  return bundle;
}

describe('the compile hints of the build', () => {
  it('marks the entry and every file it imports, once each, and no file loaded later', async () => {
    const bundle = await hinted({
      'assets/index.js': chunk('entry();', ['assets/react.js', 'assets/theme.js'], { isEntry: true, dynamicImports: ['assets/screen.js'] }),
      'assets/react.js': chunk('react();'),
      // Imported by the start and by a screen: one hint.
      'assets/theme.js': chunk('theme();', ['assets/react.js']),
      'assets/screen.js': chunk('screen();', ['assets/react.js', 'assets/theme.js', 'assets/grid.js']),
      'assets/grid.js': chunk('grid();'),
      'assets/index.css': { type: 'asset', source: 'body{}' },
    });
    expect(bundle['assets/index.js']).toMatchObject({ code: `${HINT}entry();` });
    expect(bundle['assets/react.js']).toMatchObject({ code: `${HINT}react();` });
    expect(bundle['assets/theme.js']).toMatchObject({ code: `${HINT}theme();` });
    expect(bundle['assets/screen.js']).toMatchObject({ code: 'screen();' });
    expect(bundle['assets/grid.js']).toMatchObject({ code: 'grid();' });
    expect(bundle['assets/index.css']).toEqual({ type: 'asset', source: 'body{}' });
  });

  it('moves a source map one line down with the file it maps', async () => {
    const bundle = await hinted({
      'assets/index.js': chunk('entry();\n//# sourceMappingURL=index.js.map', [], { isEntry: true, map: { mappings: 'AAAA' } }),
      'assets/index.js.map': { type: 'asset', source: JSON.stringify({ version: 3, sources: ['main.tsx'], mappings: 'AAAA' }) },
    });
    expect(bundle['assets/index.js']).toMatchObject({ map: { mappings: ';AAAA' } });
    expect(JSON.parse((bundle['assets/index.js.map'] as { source: string }).source)).toEqual({ version: 3, sources: ['main.tsx'], mappings: ';AAAA' });
  });
});
