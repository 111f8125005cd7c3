/**
 * Compiles the server to JavaScript for production (`npm run build`; `npm start` and `npm run serve`
 * run it with plain node): esbuild bundles each command with the project's own code (contract,
 * resources, hooks) into build/server/, the packages staying in node_modules.
 *
 * - server/modules.ts, which finds the resource and hook files on disk, is replaced by a module
 *   that imports each of them by name (read when first asked for, as the sources do).
 * - The console's components that resource files load lazily are never loaded by the server: those
 *   imports are left as they are, unbundled. A declaration's demo rows (`rows.demo`, loaded from its
 *   folder's `demo.ts`) are the server's: bundled.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { hookFiles, resourceFiles } from '../modules';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const OUT = path.join(ROOT, 'build');

/** server/modules.ts for the compiled server: every resource and hook file, by name. */
function modulesByName(): string {
  const resources = resourceFiles().map((file) => `() => import(${JSON.stringify(file)})`);
  const hooks = [...hookFiles()].map(([entity, file]) => `[${JSON.stringify(entity)}, () => import(${JSON.stringify(file)})]`);
  return `
const resources = [${resources.join(', ')}];
const hooks = new Map([${hooks.join(', ')}]);
const none = () => { throw new Error('The compiled server reads its resource and hook files from the build'); };
export const RESOURCES_DIR = undefined;
export const HOOKS_DIR = undefined;
export const resourceFiles = none;
export const hookFiles = none;
export async function resourceModules(dir) {
  if (dir !== undefined) none();
  return Promise.all(resources.map(async (load) => (await load()).default));
}
export async function hooksOf(entity) {
  const load = hooks.get(entity);
  return load ? (await load()).hooks : undefined;
}
`;
}

const compiled: Plugin = {
  name: 'marketplace-server',
  setup(b) {
    const modules = path.join(ROOT, 'server', 'modules.ts');
    b.onLoad({ filter: /[\\/]server[\\/]modules\.ts$/ }, (args) =>
      args.path === modules ? { contents: modulesByName(), loader: 'js', resolveDir: ROOT } : undefined,
    );
    // A resource file's screen components (`() => import('./UserControl')`) are the console's; its
    // demo rows (`() => import('./demo')`) the server's.
    const resources = path.join(ROOT, 'resources') + path.sep;
    const demoRows = /^\.\/demo(\.ts)?$/;
    b.onResolve({ filter: /.*/ }, (args) =>
      args.kind === 'dynamic-import' && args.importer.startsWith(resources) && !demoRows.test(args.path)
        ? { path: args.path, external: true }
        : undefined,
    );
  },
};

const started = Date.now();
fs.rmSync(path.join(OUT, 'server'), { recursive: true, force: true });
await build({
  entryPoints: ['server/main.ts', 'server/cli.ts', 'server/ops/commands.ts'].map((p) => path.join(ROOT, p)),
  outbase: ROOT,
  outdir: OUT,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
  plugins: [compiled],
});
console.log(`Server compiled to ${path.relative(ROOT, OUT)}/server in ${Date.now() - started} ms`);
