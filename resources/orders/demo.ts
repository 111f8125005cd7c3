/**
 * The demo orders (SPEC §2.12): thirty across the demo shops and three buyers, in every status and
 * five currencies, each with its items (from the shop's own products, priced in the order's currency).
 * They are spread over the last four weeks, newer ids newer (lists keep their order), so the
 * dashboard's charts have days to show; an order was last changed when its last status event was
 * (resources/orderEvents/demo.ts). Their money is told in the ledger by the orders' hooks.
 */
import { convert, type DeclaredRow, type DemoBuilder, type Rate } from '../../contract';
import { account, DEMO_ACCOUNTS, ORDER_BUYERS } from '../users/demo';

const COUNT = 30;
const CURRENCIES = ['USD', 'GBP', 'EUR', 'NGN', 'LRD'];
const PLACES = [
  ['Lagos', 'Lagos', 'Nigeria', '100001'], ['London', 'England', 'United Kingdom', 'SW1A 1AA'],
  ['Monrovia', 'Montserrado', 'Liberia', '1000'], ['Austin', 'Texas', 'United States', '73301'], ['Berlin', 'Berlin', 'Germany', '10115'],
];
const DAY_MS = 86_400_000;
/** Between one status change of a demo order and the next. */
const EVENT_GAP_MS = 5 * 3_600_000;
const CANCELLED = 6;
const round2 = (x: number) => Math.round(x * 100) / 100;

/** The statuses a demo order went through to reach its own: each one in turn, or new, confirmed, then cancelled. */
export const timeline = (status: number): number[] =>
  status === CANCELLED ? [1, 2, CANCELLED] : Array.from({ length: status }, (_, k) => k + 1);

/** When each of `count` status changes happened: the first when the order was placed, each later one some hours on, never after now. */
export const eventTimes = (placed: number, count: number, now: number): string[] =>
  Array.from({ length: count }, (_, k) => new Date(Math.min(now, placed + k * EVENT_GAP_MS)).toISOString());

const build: DemoBuilder = async ({ rows, now }) => {
  const users = await rows('users');
  const buyers = [DEMO_ACCOUNTS.buyer, ...ORDER_BUYERS].map(({ email }) => account(users, email));
  const shops = await rows('shops');
  const products = await rows('products');
  const rates = (await rows('exchanges')) as unknown as Rate[];
  const orders: DeclaredRow[] = [];
  for (let i = 1; i <= COUNT; i++) {
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
    const index = i - 1;
    const daysAgo = Math.round(((COUNT - 1 - index) * 27) / (COUNT - 1));
    const placed = now - daysAgo * DAY_MS - (index % 5) * 3_600_000;
    const changes = eventTimes(placed, timeline(status).length, now);
    orders.push({
      shop_id: shop.id, customer_id: buyer.id, parent_id: null, payment_gateway: paid ? (i % 2 ? 'paypal' : 'bank') : 'Unpaid',
      tracking_number: `TRK${1000 + i}`, number_of_items: items.reduce((s, it) => s + it.quantity, 0), status, currency,
      amount, sales_tax: 0, discount: 0, total, total_fxws: total, paid_total: paid, paid_total_fxws: paid, delivery_fee: fee,
      logistics: i % 2 ? 'DHL' : 'Local courier', customer_contact: '+231770000000',
      shipping_address: { street_name: `${i} High Road`, city, state, country, zip },
      items, dispatch_status: status >= 3 && status <= 5 ? 'dispatched' : 'pending', is_active: 1,
      created_at: changes[0], updated_at: changes[changes.length - 1],
    });
  }
  return orders;
};
export default build;
