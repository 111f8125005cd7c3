// @vitest-environment jsdom
/**
 * What Orders, My Orders, checkout and the currency display send on the wire (SPEC §4.5, §7.4, §7.7),
 * through the real dataProvider and a fake HTTP client.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { envelope, type Info } from '../../contract';
import { registry } from '../../resources';
import { byShop, orderRequest } from '../../resources/orders/checkout';
import { cartItemOf } from '../../resources/orders/cartItem';
import { createDataProvider, type HttpClient } from '../../dataProvider';
import { clearSession, getSession, setSession } from '../../authProvider/session';

const API = 'http://api.test/api';
const ok = (part: Partial<Info> = {}): Info => envelope({ status: true, query: 'Done', ...part });

function fake(answer: Info = ok()) {
  const calls: { url: string; body: unknown; headers: Record<string, string> }[] = [];
  const client: HttpClient = async (url, init) => {
    calls.push({ url, body: JSON.parse(String(init.body)), headers: init.headers as Record<string, string> });
    return { status: 200, json: answer };
  };
  return { dp: createDataProvider({ apiUrl: API, resources: registry, session: getSession, http: client }), calls };
}

beforeEach(() => {
  clearSession();
  setSession('tok', 7);
});

describe('orders on the wire (SPEC §4.5, §7.4)', () => {
  it('Orders sends {status, id}; My Orders sends {state, id} (deactivateOrder) to the same /order/status', async () => {
    const { dp, calls } = fake();
    const previousData = { id: 12, status: { id: 1, name: 'New Order' }, total: 50 };
    await dp.setStatus('orders', { id: 12, data: { status: 3 }, previousData });
    await dp.setStatus('my-orders', { id: 12, data: { status: 6 }, previousData });
    expect(calls.map((c) => [c.url, c.body])).toEqual([
      [`${API}/order/status`, { status: 3, id: 12 }],
      [`${API}/order/status`, { state: 6, id: 12 }],
    ]);
  });

  it('My Orders (getOrder) lists /orders {page} asking for the caller’s own, and keeps only their shops’ rows', async () => {
    const { dp, calls } = fake(ok({ HLL: { data: [{ id: 1, shop: { owner_id: 7 } }, { id: 2, shop: { owner_id: 9 } }], total: 2, from: 1, to: 2, current_page: 1, last_page: 1 } }));
    const { data } = await dp.getList('my-orders', { pagination: { page: 1, perPage: 15 }, sort: { field: 'id', order: 'DESC' }, filter: {} });
    expect(calls[0]).toMatchObject({ url: `${API}/orders`, body: { page: 1, scope: 'own' } });
    expect(data.map((r) => r.id)).toEqual([1]);
  });

  it('searches orders with keyIndex 4 over id, created_at and tracking_number', async () => {
    const { dp, calls } = fake(ok({ HLL: [] }));
    await dp.getList('orders', { pagination: { page: 1, perPage: 15 }, sort: { field: 'id', order: 'DESC' }, filter: { q: 'TRK1001' } });
    expect(calls[0]).toMatchObject({ url: `${API}/search-dive`, body: { keyIndex: 4, value: 'TRK1001', targets: ['id', 'created_at', 'tracking_number'] } });
  });

  it('never deletes an order', async () => {
    const { dp, calls } = fake();
    await expect(dp.delete('my-orders', { id: 1 })).rejects.toMatchObject({ status: 405 });
    expect(calls).toEqual([]);
  });

  it('checkout posts one /order per shop: only the shop, products, quantities, address, contact and shipping class; later ones name the first', async () => {
    const rates = [{ code: 'USD', value_per_dollar: 1 }, { code: 'NGN', value_per_dollar: 1550 }];
    const a = cartItemOf({ id: 1, name: 'Lamp', price: 20, sale_price: 18, currency: { code: 'USD' }, weight: 2, shop_id: 4, shop: { name: 'Olu' } }, rates);
    const b = cartItemOf({ id: 2, name: 'Rug', price: 3100, sale_price: 0, currency: { code: 'NGN' }, weight: 1, shop_id: 9 }, rates);
    const c = { ...a, id: 3, quantity: 2 };
    expect(a).toEqual({ id: 1, quantity: 1, sale_price: 18, sale_price_fxws: 18, weight: 2, name: 'Lamp', currency: 'USD', shop_id: 4, shop_name: 'Olu' });
    expect(b).toMatchObject({ sale_price: 3100, sale_price_fxws: 2, currency: 'NGN' });
    const groups = byShop([a, b, c]);
    expect(groups.map((g) => g.map((it) => it.id))).toEqual([[1, 3], [2]]);
    const address = { street_name: '1 Main St', city: 'Monrovia', state: '', country: 'Liberia', zip: '' };
    const { dp, calls } = fake(ok({ detail: { id: 40 } }));
    await dp.call(registry.entity('orders').save, orderRequest(groups[0], address, ' +231 77 ', undefined));
    await dp.call(registry.entity('orders').save, orderRequest(groups[1], address, '', 40, 7));
    expect(calls.map((x) => [x.url, x.body])).toEqual([
      [`${API}/order`, { shop_id: 4, items: [{ product_id: 1, quantity: 1 }, { product_id: 3, quantity: 2 }], shipping_address: address, customer_contact: '+231 77' }],
      [`${API}/order`, { shop_id: 9, items: [{ product_id: 2, quantity: 1 }], shipping_address: address, parent_id: 40, shipping_id: 7 }],
    ]);
    expect(calls[0].headers).toMatchObject({ 'Content-Type': 'application/json', Accept: 'application/json', Authorization: 'Bearer tok' });
  });
});

describe('exchange rates on the wire (SPEC §7.7)', () => {
  it('the currency display reads /exchangess with an empty payload; the currency lists send {page: 1}', async () => {
    const { dp, calls } = fake(ok({ HLL: [{ id: 1, code: 'USD', value_per_dollar: 1 }] }));
    await dp.call(registry.entity('exchanges').list);
    await dp.getList('Currencies-exchange', { pagination: { page: 1, perPage: 100 }, sort: { field: 'code', order: 'ASC' }, filter: {} });
    expect(calls[0]).toMatchObject({ url: `${API}/exchangess`, body: {} });
    expect(calls[1]).toMatchObject({ url: `${API}/exchangess`, body: { page: 1 } });
  });

  it('saves through /exchanges with the form fields, country and currency; deletes with {tyype: clear, id}', async () => {
    const { dp, calls } = fake(ok({ detail: { id: 5 } }));
    await dp.create('Currencies-exchange', { data: { code: 'GHS', currency: 'Cedi', country: 'Ghana', currency_symbol: '₵', value_per_dollar: 15.5 } });
    await dp.delete('Currencies-exchange', { id: 5 });
    expect(calls.map((c) => [c.url, c.body])).toEqual([
      [`${API}/exchanges`, { code: 'GHS', currency: 'Cedi', country: 'Ghana', currency_symbol: '₵', value_per_dollar: 15.5 }],
      [`${API}/exchanges/status`, { tyype: 'clear', id: 5 }],
    ]);
  });
});
