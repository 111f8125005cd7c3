/**
 * Demo orders (SPEC §2.12): across the demo shops and several buyers, in every status and five
 * currencies, each with its items (from the shop's own products, priced in the order's currency)
 * and its timeline.
 */
import { convert, DEFAULT_ABILITIES, type Rate } from '../../contract';
import { now, type DB, type Row } from '../db';
import { createUser } from '../routes/users';

const CURRENCIES = ['USD', 'GBP', 'EUR', 'NGN', 'LRD'];
const PLACES = [
  ['Lagos', 'Lagos', 'Nigeria', '100001'], ['London', 'England', 'United Kingdom', 'SW1A 1AA'],
  ['Monrovia', 'Montserrado', 'Liberia', '1000'], ['Austin', 'Texas', 'United States', '73301'], ['Berlin', 'Berlin', 'Germany', '10115'],
];
const round2 = (x: number) => Math.round(x * 100) / 100;

export async function seedOrders(db: DB) {
  const stamp = now();
  const buyers = [
    await db.selectFrom('users').select(['id', 'name']).where('email', '=', 'buyer@example.com').executeTakeFirstOrThrow(),
    await createUser(db, { name: 'Kofi Mensah', email: 'kofi@example.com', phone: '+233200000001', password: 'kofi-buyer-1', abilities: DEFAULT_ABILITIES }),
    await createUser(db, { name: 'Greta Braun', email: 'greta@example.com', phone: '+4930000002', password: 'greta-buyer-1', abilities: DEFAULT_ABILITIES }),
  ];
  const staff = await db.selectFrom('users').select(['id', 'name']).where('email', '=', 'admin@example.com').executeTakeFirstOrThrow();
  const shops = await db.selectFrom('shops').select(['id', 'owner_id']).orderBy('id').execute();
  const products = await db.selectFrom('products').select(['id', 'name', 'sku', 'price', 'sale_price', 'currency', 'shop_id']).execute();
  const rates = (await db.selectFrom('exchanges').select(['code', 'value_per_dollar', 'currency_symbol']).execute()) as Rate[];
  for (let i = 1; i <= 30; i++) {
    const shop = shops[i % shops.length];
    const buyer = buyers[i % buyers.length];
    const currency = CURRENCIES[i % CURRENCIES.length];
    const [city, state, country, zip] = PLACES[i % PLACES.length];
    const own = products.filter((p) => Number(p.shop_id) === Number(shop.id));
    const lines = (own.length ? own : products.slice(i % products.length, (i % products.length) + 1)).slice(0, 2);
    const items = lines.map((p, k) => {
      const unit = Number(p.sale_price) > 0 ? Number(p.sale_price) : Number(p.price);
      const quantity = ((i + k) % 3) + 1;
      return {
        product_id: p.id, name: p.name, sku: p.sku, quantity, price: convert(unit, String(p.currency || 'USD'), currency, rates), currency,
      };
    });
    const amount = round2(items.reduce((sum, it) => sum + it.price * it.quantity, 0));
    const fee = round2(convert(i % 2 ? 5 : 10, 'USD', currency, rates));
    const total = round2(amount + fee);
    const status = (i % 6) + 1;
    const paid = status === 6 ? 0 : i % 4 === 0 ? 0 : total;
    const order = await db
      .insertInto('orders')
      .values({
        shop_id: shop.id, customer_id: buyer.id, parent_id: null, payment_gateway: paid ? (i % 2 ? 'paypal' : 'bank') : 'Unpaid',
        tracking_number: `TRK${1000 + i}`, number_of_items: items.reduce((s, it) => s + it.quantity, 0), status, currency,
        amount, sales_tax: 0, discount: 0, total, total_fxws: total, paid_total: paid, paid_total_fxws: paid, delivery_fee: fee,
        logistics: i % 2 ? 'DHL' : 'Local courier', customer_contact: '+231770000000',
        shipping_address: JSON.stringify({ street_name: `${i} High Road`, city, state, country, zip }),
        items: JSON.stringify(items), dispatch_status: status >= 3 && status <= 5 ? 'dispatched' : 'pending', is_active: 1,
        created_at: stamp, updated_at: stamp,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const events: Row[] = [{ from_status: null, to_status: 1, user_id: buyer.id, user_name: buyer.name }];
    for (let s = 2; s <= status; s++) {
      if (status === 6 && s < 6 && s > 2) continue;
      events.push({ from_status: events[events.length - 1].to_status, to_status: s, user_id: staff.id, user_name: staff.name });
    }
    for (const e of events) await db.insertInto('orderEvents').values({ ...e, order_id: order.id, created_at: stamp, updated_at: stamp }).execute();
  }
}
