import type { ResourceProps } from 'react-admin';

/**
 * The console's screens, one declaration per entity; App maps each to a <Resource>. `name` is the
 * route segment ('shops', 'my-shops', 'Currencies-exchange'), which lower-cased is the access token.
 */
export type ResourceDeclaration = ResourceProps;

export const resources: ResourceDeclaration[] = [];
