/** Routes of the products' screens that its own components tell apart (kept apart so they need not import the declaration). */
export const MY_PRODUCTS_PATH = '/my-products';
