/**
 * The server's registry: every resource file under resources/ (`<name>.ts` or `<name>/index.ts`),
 * read at start-up. Resource files are pure data (their components are lazy loaders the server never
 * calls), so the server reads the same declarations as the console.
 */
import { createRegistry, type Registry } from '../contract';
import { resourceModules } from './modules';

export { resourceFiles } from './modules';

/** The registry of a folder of resource files (the project's by default). */
export async function loadRegistry(dir?: string): Promise<Registry> {
  return createRegistry(await resourceModules(dir));
}

/** The registry the server runs with. */
export const registry: Registry = await loadRegistry();
