/** Finds each entity's hooks file (server/hooks/<entity>.ts), once at start-up. */
import type { EntityContract } from '../../contract';
import { hooksOf } from '../modules';
import type { EntityHooks } from './types';

export type { DemoHookContext, EntityHooks, HookContext, SweepContext } from './types';

export async function loadHooks(entities: readonly EntityContract[]): Promise<Map<string, EntityHooks>> {
  const found = new Map<string, EntityHooks>();
  for (const entity of entities) {
    const hooks = await hooksOf(entity.name);
    if (hooks) found.set(entity.name, hooks);
  }
  return found;
}
