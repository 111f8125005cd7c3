/**
 * The server's registry: every resource file under resources/ (`<name>.ts` or `<name>/index.ts`),
 * read at start-up. Resource files are pure data (their components are lazy loaders the server never
 * calls), so the server reads the same declarations as the console.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRegistry, type Registry, type ResourceApi } from '../contract';

const RESOURCES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../resources');
const NOT_RESOURCES = new Set(['index.ts', 'types.ts']);

/** The resource files of a folder, in name order. */
export function resourceFiles(dir = RESOURCES_DIR): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      if (entry.isFile() && entry.name.endsWith('.ts') && !NOT_RESOURCES.has(entry.name)) return [path.join(dir, entry.name)];
      const index = path.join(dir, entry.name, 'index.ts');
      return entry.isDirectory() && fs.existsSync(index) ? [index] : [];
    })
    .sort();
}

export async function loadRegistry(dir = RESOURCES_DIR): Promise<Registry> {
  const defs = await Promise.all(
    resourceFiles(dir).map(async (file) => ((await import(pathToFileURL(file).href)) as { default: ResourceApi }).default),
  );
  return createRegistry(defs);
}

/** The registry the server runs with. */
export const registry: Registry = await loadRegistry();
