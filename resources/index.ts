/**
 * The console's registry: every resource file of this folder (`<name>.ts`, or `<name>/index.ts` for
 * a resource with components of its own), found by the bundler, so adding a file adds the screen.
 * The server finds the same files (server/registry.ts); a unit test checks both agree.
 */
import { createRegistry } from '../contract';
import type { ResourceDefinition } from './types';

export type { ResourceDefinition } from './types';
export { defineResource } from './types';

const modules = import.meta.glob<{ default: ResourceDefinition }>(['./*.ts', './*/index.ts', '!./index.ts', '!./types.ts'], {
  eager: true,
});

export const registry = createRegistry(Object.values(modules).map((m) => m.default));
