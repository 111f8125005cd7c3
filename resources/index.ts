/**
 * The console's screens, one declaration per entity (see README.md here). App turns each into a
 * <Resource>, with the seller variant when it has one; the sidebar and canAccess name them by the
 * contract's access tokens.
 */
import { brands } from './brands';
import { categories } from './categories';
import { shops } from './shops';
import type { ResourceDeclaration } from './types';

export type { ResourceDeclaration } from './types';

export const resources: readonly ResourceDeclaration[] = [shops, categories, brands];
