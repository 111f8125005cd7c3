/** Finds each entity's hooks file (server/hooks/<entity>.ts), once at start-up. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { EntityContract } from '../../contract';
import type { EntityHooks } from './types';

export type { EntityHooks, HookContext, SweepContext } from './types';

const DIR = path.dirname(fileURLToPath(import.meta.url));

export async function loadHooks(entities: readonly EntityContract[]): Promise<Map<string, EntityHooks>> {
  const found = new Map<string, EntityHooks>();
  for (const entity of entities) {
    const file = path.join(DIR, `${entity.name}.ts`);
    if (!fs.existsSync(file)) continue;
    const mod = (await import(pathToFileURL(file).href)) as { hooks: EntityHooks };
    found.set(entity.name, mod.hooks);
  }
  return found;
}
