/** The cart store (SPEC §3.21, §4.9): actions, totals exactly as specified, local storage under 'cart'. */
import { describe, expect, it } from 'vitest';
import { CART_KEY, EMPTY_CART, cartReducer, createCartStore, readCart, withTotals, type CartItem } from '../../src/cart/store';

const lamp: CartItem = { id: 1, quantity: 1, sale_price: 10, sale_price_fxws: 10, weight: 2, currency: 'USD' };
const rug: CartItem = { id: 2, quantity: 3, sale_price: 1550, sale_price_fxws: 1, weight: 5, currency: 'NGN' };

function memory() {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
  };
}

describe('cart totals (SPEC §4.9)', () => {
  it('sums quantities, prices × quantity, fxws prices × quantity, and weights NOT multiplied by quantity', () => {
    const cart = withTotals([lamp, rug]);
    expect(cart).toEqual({
      items: [lamp, rug], total_items: 4, total_price: 10 + 4650, total_price_fxws: 10 + 3, total_wieght: 7, isEmpty: false,
    });
    expect(EMPTY_CART).toEqual({ items: [], total_items: 0, total_price: 0, total_price_fxws: 0, total_wieght: 0, isEmpty: true });
  });
});

describe('cart actions (SPEC §4.9)', () => {
  it('adds an item, and adding it again raises its quantity', () => {
    let cart = cartReducer(EMPTY_CART, { type: 'add', item: lamp });
    cart = cartReducer(cart, { type: 'add', item: { ...lamp, quantity: 2 } });
    expect(cart.items).toEqual([{ ...lamp, quantity: 3 }]);
    expect(cart.total_items).toBe(3);
    expect(cart.total_wieght).toBe(2);
  });

  it('increases by an amount, decreases only while above 1, removes by id', () => {
    let cart = withTotals([lamp, rug]);
    cart = cartReducer(cart, { type: 'increase', id: 1, amount: 4 });
    expect(cart.items[0].quantity).toBe(5);
    cart = cartReducer(cart, { type: 'decrease', id: 1 });
    expect(cart.items[0].quantity).toBe(4);
    const one = cartReducer(withTotals([lamp]), { type: 'decrease', id: 1 });
    expect(one.items[0].quantity).toBe(1);
    cart = cartReducer(cart, { type: 'remove', id: '2' });
    expect(cart.items.map((it) => it.id)).toEqual([1]);
    expect(cartReducer(cart, { type: 'recompute' }).total_price).toBe(40);
  });

  it('restores a backup, reading it defensively', () => {
    const backup = JSON.parse(JSON.stringify(withTotals([lamp, rug])));
    expect(cartReducer(EMPTY_CART, { type: 'restore', backup })).toEqual(withTotals([lamp, rug]));
    expect(cartReducer(withTotals([lamp]), { type: 'restore', backup: 'garbage' })).toEqual(EMPTY_CART);
    expect(readCart({ items: [{ id: 3, quantity: -2, sale_price: 'x' }, null, { quantity: 1 }] }).items).toEqual([{ id: 3, quantity: 1, sale_price: 'x' }]);
  });
});

describe('the stored cart', () => {
  it("saves every change under 'cart', starts from what is stored, and clear removes the key", () => {
    const storage = memory();
    const store = createCartStore(storage);
    store.dispatch({ type: 'add', item: lamp });
    expect(JSON.parse(storage.map.get(CART_KEY)!)).toMatchObject({ total_items: 1, isEmpty: false });
    const again = createCartStore(storage);
    expect(again.get().items).toEqual([lamp]);
    let heard = 0;
    again.subscribe(() => heard++);
    again.dispatch({ type: 'clear' });
    expect(storage.map.has(CART_KEY)).toBe(false);
    expect(again.get()).toEqual(EMPTY_CART);
    expect(heard).toBe(1);
    storage.map.set(CART_KEY, '{not json');
    expect(createCartStore(storage).get()).toEqual(EMPTY_CART);
  });

  it('keeps a cart without storage (a blocked one) for the page, and lets a listener go', () => {
    const store = createCartStore(undefined);
    store.dispatch({ type: 'add', item: lamp });
    expect(store.get().items).toEqual([lamp]);
    store.dispatch({ type: 'clear' });
    expect(store.get()).toEqual(EMPTY_CART);
    let heard = 0;
    const stop = store.subscribe(() => heard++);
    store.dispatch({ type: 'add', item: lamp });
    stop();
    store.dispatch({ type: 'add', item: lamp });
    expect(heard).toBe(1);
  });

  it('reloads what another tab stored, and tells its listeners', () => {
    const storage = memory();
    const store = createCartStore(storage);
    let heard = 0;
    store.subscribe(() => heard++);
    createCartStore(storage).dispatch({ type: 'add', item: rug });
    expect(store.get()).toEqual(EMPTY_CART);
    store.reload();
    expect(store.get().items).toEqual([rug]);
    expect(heard).toBe(1);
  });
});

describe('reading a stored cart', () => {
  it('takes items with a number or a text id, and nothing from what is not a cart', () => {
    expect(readCart({ items: [{ ...lamp, id: 'a7' }] }).items).toEqual([{ ...lamp, id: 'a7' }]);
    for (const value of [null, undefined, 'cart', 7, {}, { items: 'abc' }, { items: { 0: lamp } }]) expect(readCart(value)).toEqual(EMPTY_CART);
  });
});

