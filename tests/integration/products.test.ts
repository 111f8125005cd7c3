/**
 * Products' own rules over real HTTP, in the form's own words (SPEC §3.4, §5): a sale price less
 * than 'Price' when the price is greater than zero, and 'Unique Currency per Shop'.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { SALE_PRICE_RULE } from '../../server/hooks/products';

let s: TestServer;
let seller: { id: number; token: string };

beforeAll(async () => {
  s = await startServer();
  seller = await s.userWith([1, 2]);
});
afterAll(() => s.close());

let made = 0;
async function newShop(): Promise<number> {
  const shop = await s.post('/shop', {
    name: `Rules shop ${seller.id}-${++made}`, description: 'd', category_id: 1, address: { street_name: 's', zip: 'z', country: 'Ghana' },
    bank: { bank_name: 'b', bank_country: 'c', account_name: 'n', account_number: '1' },
  }, seller.token);
  expect(shop.body.status).toBe(true);
  return shop.body.detail.id;
}

const product = async (shopId: number, fields: Record<string, unknown>) => {
  const sub = await s.db.selectFrom('subcategories').select(['id', 'category_id']).orderBy('id').executeTakeFirstOrThrow();
  return s.post('/product', {
    shop_id: shopId, name: `Chair ${++made}`, description: 'A chair', currency: 'USD', price: 20, sale_price: 15, in_stock: 3,
    category_id: sub.category_id, subcategory_id: sub.id, band_name: 'Acme', ...fields,
  }, seller.token);
};

describe("sale price less than 'Price' when greater than Zero", () => {
  it('accepts a sale price below the price, or any when the price is zero; refuses it at or above the price', async () => {
    const shopId = await newShop();
    expect((await product(shopId, { price: 20, sale_price: 19.99 })).body.status).toBe(true);
    expect((await product(shopId, { price: 20, sale_price: 0 })).body.status).toBe(true);
    expect((await product(shopId, { price: 0, sale_price: 25 })).body.status).toBe(true);
    for (const sale of [20, 20.01, 500]) {
      const res = await product(shopId, { price: 20, sale_price: sale });
      expect(res.http, String(sale)).toBe(400);
      expect(res.body).toMatchObject({ status: false, query: SALE_PRICE_RULE });
    }
  });

  it('compares a change with what the product already has', async () => {
    const shopId = await newShop();
    const created = (await product(shopId, { price: 20, sale_price: 15 })).body.detail;
    const raised = await s.post('/product', { id: created.id, sale_price: 21 }, seller.token);
    expect(raised.body.query).toBe(SALE_PRICE_RULE);
    const lowered = await s.post('/product', { id: created.id, price: 10 }, seller.token);
    expect(lowered.body.query).toBe(SALE_PRICE_RULE);
    expect((await s.post('/product', { id: created.id, price: 30, sale_price: 29 }, seller.token)).body.status).toBe(true);
  });
});

describe('Unique Currency per Shop', () => {
  it("refuses a product in a second currency in a shop, on create, on edit and on a move, and takes it in another shop", async () => {
    const shopId = await newShop();
    const usd = (await product(shopId, { currency: 'USD' })).body.detail;
    expect((await product(shopId, { currency: 'usd' })).body.status).toBe(true);
    const second = await product(shopId, { currency: 'EUR' });
    expect(second.http).toBe(409);
    expect(second.body).toMatchObject({ status: false, query: "Unique Currency per Shop: this shop's products are priced in USD, not EUR" });
    const edited = await s.post('/product', { id: usd.id, currency: 'EUR' }, seller.token);
    expect(edited.body.query).toMatch(/^Unique Currency per Shop/);

    const euroShop = await newShop();
    const eur = (await product(euroShop, { currency: 'EUR' })).body.detail;
    expect(eur.currency).toEqual({ code: 'EUR' });
    const moved = await s.post('/product', { id: eur.id, shop_id: shopId }, seller.token);
    expect(moved.body.query).toMatch(/^Unique Currency per Shop/);
    // The only product of a shop may change its currency.
    expect((await s.post('/product', { id: eur.id, currency: 'GBP' }, seller.token)).body.status).toBe(true);
  });
});
