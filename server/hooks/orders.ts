/**
 * Orders (SPEC §4.5): a seller moves the orders of their shops through the statuses; amounts,
 * customer and items are not theirs to change.
 */
import { forbidden } from '../errors';
import type { EntityHooks } from './types';

export const hooks: EntityHooks = {
  beforeWrite({ scope }, values, before) {
    if (scope.kind !== 'own') return values;
    const other = Object.keys(values).filter((key) => key !== 'status' && values[key] !== (before?.[key] ?? null));
    if (!before || other.length) throw forbidden('A seller can only change the status of an order');
    return values;
  },
};
