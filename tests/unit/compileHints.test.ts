/**
 * The build marks the files every page runs at its start (the entry, the stages the entry file loads
 * itself, and the files these import, at any depth) for V8 to compile whole as they arrive, and only
 * those: a screen's file, loaded later and in part, is compiled as it is used. The page asks for the
 * same files as it loads, so that the console's staged start never waits on the network.
 */
import { describe, expect, it } from 'vitest';
import type { Plugin } from 'vite';
import viteConfig from '../../vite.config';

const HINT = '//# allFunctionsCalledOnLoad\n';

type Chunk = { type: 'chunk'; isEntry: boolean; imports: string[]; dynamicImports: string[]; code: string; map?: { mappings: string } };
const chunk = (code: string, imports: string[] = [], more: Partial<Chunk> = {}): Chunk => ({ type: 'chunk', isEntry: false, imports, dynamicImports: [], code, ...more });

async function plugin(name: string): Promise<Plugin> {
  const config = await (viteConfig as (env: { command: 'build'; mode: string }) => { plugins: Plugin[] })({ command: 'build', mode: 'production' });
  const found = config.plugins.flat().find((p) => p.name === name);
  if (!found) throw new Error(`no ${name} step in the build`);
  return found;
}

async function hinted<B extends Record<string, Chunk | { type: 'asset'; source: string }>>(bundle: B): Promise<B> {
  const hook = (await plugin('compile-hints')).generateBundle as unknown as { order: string; handler: (options: unknown, bundle: unknown) => void };
  // Last among the build's hooks: the hint must stay on the file's first line.
  expect(hook.order).toBe('post');
  hook.handler.call({}, {}, bundle);
  return bundle;
}

/**
 * An entry that imports React and loads two stages itself (a theme, then the app, which imports a
 * layout and loads a screen later); the screen imports a grid and files of the start.
 */
const stagedBundle = () => ({
  'assets/index.js': chunk('index();', ['assets/react.js'], { isEntry: true, dynamicImports: ['assets/theme.js', 'assets/app.js'] }),
  'assets/react.js': chunk('react();'),
  'assets/theme.js': chunk('theme();', ['assets/react.js']),
  'assets/app.js': chunk('app();', ['assets/react.js', 'assets/layout.js'], { dynamicImports: ['assets/screen.js'] }),
  'assets/layout.js': chunk('layout();', ['assets/theme.js']),
  // Imported by the start and by a screen: one hint.
  'assets/screen.js': chunk('screen();', ['assets/react.js', 'assets/theme.js', 'assets/grid.js']),
  'assets/grid.js': chunk('grid();'),
  'assets/index.css': { type: 'asset' as const, source: 'body{}' },
});

describe('the files a page starts with', () => {
  it('marks the entry, its stages and every file they import, once each, and no file loaded later', async () => {
    const bundle: Record<string, unknown> = await hinted(stagedBundle());
    for (const file of ['index', 'react', 'theme', 'app', 'layout']) expect(bundle[`assets/${file}.js`], file).toMatchObject({ code: `${HINT}${file}();` });
    expect(bundle['assets/screen.js']).toMatchObject({ code: 'screen();' });
    expect(bundle['assets/grid.js']).toMatchObject({ code: 'grid();' });
    expect(bundle['assets/index.css']).toEqual({ type: 'asset', source: 'body{}' });
  });

  it('has the page ask for the stages and what they import as it loads, each once, and for no file loaded later', async () => {
    const hook = (await plugin('start-in-stages')).transformIndexHtml as unknown as { order: string; handler: (html: string, context: unknown) => unknown };
    // After Vite's own step, which links the entry's static imports.
    expect(hook.order).toBe('post');
    const html = '<script type="module" crossorigin src="/assets/index.js"></script><link rel="modulepreload" crossorigin href="/assets/react.js">';
    const tags = hook.handler(html, { bundle: stagedBundle(), chunk: stagedBundle()['assets/index.js'] }) as { tag: string; attrs: Record<string, unknown> }[];
    expect(tags.map((t) => t.attrs.href).sort()).toEqual(['/assets/app.js', '/assets/layout.js', '/assets/theme.js']);
    for (const tag of tags) expect(tag).toMatchObject({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true }, injectTo: 'head' });
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
