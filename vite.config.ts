/// <reference types="vitest/config" />
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import zlib from 'node:zlib';
import { defineConfig, type Plugin, type Rolldown } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * Writes a brotli (.br) and a gzip (.gz) copy beside every compressible file of the build, at the
 * highest levels, so the server sends them as they are instead of compressing per request.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  const walk = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
  return {
    name: 'precompress',
    apply: 'build',
    configResolved: (config) => void (outDir = path.resolve(config.root, config.build.outDir)),
    closeBundle() {
      for (const file of walk(outDir).filter((f) => /\.(js|mjs|css|html|json|svg|txt)$/.test(f))) {
        const data = fs.readFileSync(file);
        if (data.length < 1024) continue;
        fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }));
        fs.writeFileSync(`${file}.gz`, zlib.gzipSync(data, { level: 9 }));
      }
    },
  };
}

/**
 * The build's module preload helper is the console's own (src/modulePreload.ts): the same files asked
 * for ahead of each dynamic import, but the links that ask for them added a slice at a time instead
 * of in one long task.
 */
function slicedModulePreload(): Plugin {
  const helper = '\0vite/preload-helper.js';
  return {
    name: 'sliced-module-preload',
    apply: 'build',
    enforce: 'pre',
    resolveId: (id) => (id === helper ? path.resolve('src/modulePreload.ts') : null),
  };
}

/**
 * The files every page runs at its start: each entry, the stages it loads itself (the entry file's
 * own `import()`s: src/main.tsx's), and the files these import, at any depth. Code loaded later (a
 * screen, a language's words) is imported from other files, and is not part of the start.
 */
function startFiles(bundle: Rolldown.OutputBundle): Map<string, Rolldown.OutputChunk> {
  const start = new Map<string, Rolldown.OutputChunk>();
  const add = (file: string) => {
    const chunk = bundle[file];
    if (start.has(file) || chunk?.type !== 'chunk') return;
    start.set(file, chunk);
    chunk.imports.forEach(add);
  };
  for (const [file, chunk] of Object.entries(bundle)) {
    if (chunk.type !== 'chunk' || !chunk.isEntry) continue;
    add(file);
    chunk.dynamicImports.forEach(add);
  }
  return start;
}

/**
 * The console starts in stages (src/main.tsx), each run in a task of its own. The page asks for every
 * stage's files as it loads (`<link rel="modulepreload">` in index.html, as Vite does for the entry's
 * static imports), so a stage never waits on the network for the one before.
 */
function startInStages(): Plugin {
  let base = '/';
  return {
    name: 'start-in-stages',
    apply: 'build',
    configResolved: (config) => void (base = config.base),
    transformIndexHtml: {
      order: 'post',
      handler: (html, { bundle }) =>
        bundle
          ? [...startFiles(bundle).keys()]
              .filter((file) => !html.includes(`${base}${file}"`))
              .map((file) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `${base}${file}` }, injectTo: 'head' as const }))
          : html,
    },
  };
}

/**
 * The files every page runs at its start (`startFiles`) are marked for V8 to compile whole as they
 * arrive (`//# allFunctionsCalledOnLoad`, Chromium 136 and later): off the page's main thread, while
 * the rest downloads, instead of each function on the main thread at its first call. Other browsers
 * read a comment.
 */
const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';
function compileHints(): Plugin {
  const mark: NonNullable<Plugin['generateBundle']> = (_options, bundle) => {
    for (const [file, chunk] of startFiles(bundle)) {
      chunk.code = COMPILE_HINT + chunk.code;
      // A source map (a build with --sourcemap) starts a line later: one line with nothing mapped first.
      if (chunk.map) chunk.map.mappings = `;${chunk.map.mappings}`;
      const map = bundle[`${file}.map`];
      if (map?.type === 'asset') {
        const json = JSON.parse(String(map.source)) as { mappings: string };
        map.source = JSON.stringify({ ...json, mappings: `;${json.mappings}` });
      }
    }
  };
  return {
    name: 'compile-hints',
    apply: 'build',
    enforce: 'post',
    // Last: the build writes the entry's table of what its imports need at the entry's top, and the
    // hint counts only on a file's first line.
    generateBundle: { order: 'post', handler: mark },
  };
}

/**
 * React as an ES module. React ships CommonJS only, and the build turns each chunk's `import * as
 * React from 'react'` (MUI's and react-admin's way) into a copy of React's exports made at load,
 * each read through a getter: about 4,000 getters made while Products opens, and one called for every
 * hook a component calls (13,604 calls). Imports of React are pointed at one module that takes React's
 * exports once and exports them by name (the names read from React itself at build time), so the
 * build refers to them directly; `require('react')` in CommonJS packages is left as it is.
 */
function reactAsModule(): Plugin {
  const facade = '\0react-as-module';
  return {
    name: 'react-as-module',
    apply: 'build',
    enforce: 'pre',
    resolveId: (source, importer, options) =>
      source === 'react' && importer !== facade && options.kind === 'import-statement' ? facade : null,
    load(id) {
      if (id !== facade) return null;
      // Its production and development builds' names (the latter has a few more): a name the build's
      // React lacks is undefined, as it was through the copy.
      const require = createRequire(import.meta.url);
      const dir = path.join(path.dirname(require.resolve('react/package.json')), 'cjs');
      const names = new Set(['production', 'development'].flatMap((mode) => Object.keys(require(path.join(dir, `react.${mode}.js`)) as object)));
      return `import React from 'react';\nexport default React;\nexport const { ${[...names].join(', ')} } = React;\n`;
    },
  };
}

const apiTarget = process.env.API_TARGET ?? 'http://127.0.0.1:8080';

/**
 * react-router 7 names only its development build in its package exports (remix-run/react-router
 * #12532, #14753), which then ships with its warnings and checks; the build takes its production
 * build, same API, from the same package.
 */
const reactRouterProduction = (dir: string) => [
  { find: /^react-router$/, replacement: path.join(dir, 'index.mjs') },
  { find: /^react-router\/dom$/, replacement: path.join(dir, 'dom-export.mjs') },
];

/**
 * Emotion's `styled` makes, as it loads, a styled component for each of 136 HTML and SVG tags: the
 * `styled.div` shorthand, which nothing in the console calls (Material UI calls `styled(tag)`). That
 * was a tenth of the start's own module evaluation on a phone. The build takes the package's `base`
 * entry instead: the same function, without the shorthands.
 */
const emotionStyledBase = { find: /^@emotion\/styled$/, replacement: '@emotion/styled/base' };

export default defineConfig(({ command }) => ({
  plugins: [slicedModulePreload(), reactAsModule(), react(), startInStages(), compileHints(), precompress()],
  resolve: { alias: command === 'build' ? [...reactRouterProduction(path.resolve('node_modules/react-router/dist/production')), emotionStyledBase] : [] },
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
      '/directory': { target: apiTarget, changeOrigin: true },
    },
  },
  build: { outDir: 'dist', sourcemap: false },
  test: {
    environment: 'node',
    setupFiles: ['tests/setup.ts'],
    // Generous limits: the suite runs twice (SQLite, PostgreSQL) on two cores, in npm test beside the
    // browser runs, where the slowest tests took four times as long as alone; a test is never slow by design.
    // One worker on two cores (Vitest's default): two measured a sixth faster, and PostgreSQL's kept
    // answers follow the whole server's snapshot, which another worker's writes move (docs/benchmarks.md).
    // The files of a worker share its loaded modules (not isolated): each file importing the server
    // and the console anew cost a third of the run. So no test replaces a module (vi.mock); it spies
    // on what the code looks up when it runs, and restores it.
    isolate: false,
    // A stray .only fails the run instead of silently shrinking the suite.
    allowOnly: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    projects: [
      { extends: true, test: { name: 'sqlite', include: ['tests/unit/**/*.test.{ts,tsx}', 'tests/integration/**/*.test.ts'] } },
      {
        // The integration suite again on a real PostgreSQL (embedded, started by the global setup).
        // Files that never touch the database (the offline directory, the console's files) or are SQLite-file specific
        // (the CLI on DATA_DIR, backups of the embedded database) run once, above.
        extends: true,
        test: {
          name: 'postgres',
          include: ['tests/integration/**/*.test.ts'],
          exclude: ['tests/integration/directory.test.ts', 'tests/integration/cli.test.ts', 'tests/integration/assets.test.ts', 'tests/integration/backup.test.ts', 'tests/integration/compiled.test.ts'],
          globalSetup: ['tests/integration/postgres.setup.ts'],
          env: { TEST_DATABASE: 'postgres' },
        },
      },
    ],
  },
}));
