/**
 * The cart (SPEC §3.21, §4.9), held in the browser's local storage under the key 'cart'. Its actions
 * and totals are exactly the specification's: total_items sums the quantities; total_price and
 * total_price_fxws sum sale_price × quantity and sale_price_fxws × quantity; total_wieght (spelt so)
 * sums the weights, not multiplied by quantity; decrease works only above 1; clear also removes the
 * storage entry; restore puts a backup back.
 *
 * An item's sale_price is the product's price in its own currency (item.currency), what the order
 * will charge; sale_price_fxws is the same in USD, the source currency, so total_price_fxws is one
 * currency even when the cart is not (DESIGN D14).
 */
export const CART_KEY = 'cart';

export interface CartItem {
  id: number | string;
  quantity: number;
  sale_price: number;
  sale_price_fxws: number;
  weight: number;
  /** Beyond SPEC §3.21: what checkout shows and needs. */
  name?: string;
  currency?: string;
  shop_id?: number | string;
  shop_name?: string;
}

export interface Cart {
  items: CartItem[];
  total_items: number;
  total_price: number;
  total_price_fxws: number;
  total_wieght: number;
  isEmpty: boolean;
}

export type CartAction =
  | { type: 'add'; item: CartItem }
  | { type: 'remove'; id: CartItem['id'] }
  | { type: 'increase'; id: CartItem['id']; amount?: number }
  | { type: 'decrease'; id: CartItem['id'] }
  | { type: 'recompute' }
  | { type: 'clear' }
  | { type: 'restore'; backup: unknown };

const num = (value: unknown) => {
  const n = Number(value);
  return Number.isFinite(n) ? n : 0;
};

/** SPEC §4.9: the totals after every change. */
export function withTotals(items: readonly CartItem[]): Cart {
  const list = [...items];
  return {
    items: list,
    total_items: list.reduce((sum, it) => sum + num(it.quantity), 0),
    total_price: list.reduce((sum, it) => sum + num(it.sale_price) * num(it.quantity), 0),
    total_price_fxws: list.reduce((sum, it) => sum + num(it.sale_price_fxws) * num(it.quantity), 0),
    total_wieght: list.reduce((sum, it) => sum + num(it.weight), 0),
    isEmpty: list.length === 0,
  };
}

export const EMPTY_CART: Cart = withTotals([]);

const same = (a: CartItem['id'], b: CartItem['id']) => String(a) === String(b);

/** A stored or backed-up cart, read defensively: anything unreadable is an empty cart. */
export function readCart(value: unknown): Cart {
  const items = value && typeof value === 'object' && Array.isArray((value as Cart).items) ? (value as Cart).items : [];
  return withTotals(
    items
      .filter((it): it is CartItem => !!it && typeof it === 'object' && (typeof it.id === 'number' || typeof it.id === 'string'))
      .map((it) => ({ ...it, quantity: Math.max(1, Math.floor(num(it.quantity)) || 1) })),
  );
}

export function cartReducer(cart: Cart, action: CartAction): Cart {
  switch (action.type) {
    case 'add': {
      const quantity = Math.max(1, Math.floor(num(action.item.quantity)) || 1);
      const found = cart.items.find((it) => same(it.id, action.item.id));
      if (found) return withTotals(cart.items.map((it) => (same(it.id, action.item.id) ? { ...it, quantity: it.quantity + quantity } : it)));
      return withTotals([...cart.items, { ...action.item, quantity }]);
    }
    case 'remove':
      return withTotals(cart.items.filter((it) => !same(it.id, action.id)));
    case 'increase': {
      const amount = Math.max(1, Math.floor(num(action.amount ?? 1)) || 1);
      return withTotals(cart.items.map((it) => (same(it.id, action.id) ? { ...it, quantity: it.quantity + amount } : it)));
    }
    case 'decrease':
      return withTotals(cart.items.map((it) => (same(it.id, action.id) && it.quantity > 1 ? { ...it, quantity: it.quantity - 1 } : it)));
    case 'recompute':
      return withTotals(cart.items);
    case 'clear':
      return EMPTY_CART;
    case 'restore':
      return readCart(action.backup);
    default: {
      const never: never = action;
      return never;
    }
  }
}

/** The cart kept in a Storage: every change is saved; clear removes the key (SPEC §4.9). */
export function createCartStore(storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | undefined) {
  let cart = load();
  const listeners = new Set<() => void>();
  function load(): Cart {
    try {
      const raw = storage?.getItem(CART_KEY);
      return raw ? readCart(JSON.parse(raw)) : EMPTY_CART;
    } catch {
      return EMPTY_CART;
    }
  }
  return {
    get: () => cart,
    dispatch(action: CartAction) {
      cart = cartReducer(cart, action);
      try {
        if (action.type === 'clear') storage?.removeItem(CART_KEY);
        else storage?.setItem(CART_KEY, JSON.stringify(cart));
      } catch {
        // A full or blocked storage keeps the cart for this page only.
      }
      listeners.forEach((l) => l());
    },
    /** Another tab changed the stored cart. */
    reload() {
      cart = load();
      listeners.forEach((l) => l());
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
