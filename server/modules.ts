/**
 * Where the server finds the resource files (`resources/<name>.ts` or `resources/<name>/index.ts`)
 * and the entities' hook files (`server/hooks/<entity>.ts`): on disk, at start-up, when run from
 * the sources (tsx). The compiled server (server/dev/build.ts) replaces this module with one that
 * imports each of those files by name, so the JavaScript build needs no source folder.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ResourceApi } from '../contract';
import type { EntityHooks } from './hooks/types';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const RESOURCES_DIR = path.join(ROOT, 'resources');
export const HOOKS_DIR = path.join(ROOT, 'server', 'hooks');
const NOT_MODULES = new Set(['index.ts', 'types.ts']);

/** The resource files of a folder, in name order. */
export function resourceFiles(dir = RESOURCES_DIR): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      if (entry.isFile() && entry.name.endsWith('.ts') && !NOT_MODULES.has(entry.name)) return [path.join(dir, entry.name)];
      const index = path.join(dir, entry.name, 'index.ts');
      return entry.isDirectory() && fs.existsSync(index) ? [index] : [];
    })
    .sort();
}

/** The hook files: the entity's name → its file. */
export function hookFiles(dir = HOOKS_DIR): Map<string, string> {
  return new Map(
    fs.readdirSync(dir).filter((f) => f.endsWith('.ts') && !NOT_MODULES.has(f)).sort().map((f) => [f.slice(0, -3), path.join(dir, f)]),
  );
}

/** The declarations of a folder's resource files (the project's by default). */
export async function resourceModules(dir = RESOURCES_DIR): Promise<ResourceApi[]> {
  return Promise.all(resourceFiles(dir).map(async (file) => ((await import(pathToFileURL(file).href)) as { default: ResourceApi }).default));
}

const hooks = hookFiles();

/** An entity's hooks, when it has a file. */
export async function hooksOf(entity: string): Promise<EntityHooks | undefined> {
  const file = hooks.get(entity);
  return file ? ((await import(pathToFileURL(file).href)) as { hooks: EntityHooks }).hooks : undefined;
}
