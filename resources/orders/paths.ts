/** Routes of the orders' screens that its own components link to (kept apart so they need not import the declaration). */
export const PURCHASES_PATH = '/my-purchases';
