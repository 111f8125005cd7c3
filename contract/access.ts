/**
 * Access rules that are not one resource's: the sidebar entries, seller list and assignable tokens
 * are derived from the resource files by the registry (contract/registry.ts).
 */

/** The dashboard's money cards need one of these (SPEC §6.2). */
export const DASHBOARD_MONEY_TOKENS = ['mile-prices', 'shipping-classes', 'currencies-exchange'];
