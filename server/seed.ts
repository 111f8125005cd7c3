/**
 * Reference data every installation needs, and the demo data and accounts of DESIGN D7.
 */
import { ADMIN_ABILITIES, type DeclaredRow, type Registry, REGISTER_ABILITIES, DEFAULT_ABILITIES } from '../contract';
import { now, syncIdSequence, type DB, type Row } from './db';
import { readId, readPayload } from './records';
import { createUser } from './routes/users';
import { seedUsers } from './seeds/users';
import { registry } from './registry';
import { seedReferenceScreens } from './seeds/reference';
import { seedDashboard } from './seeds/dashboard';
import { seedOrders } from './seeds/orders';
import { seedLedger } from './seeds/ledger';

export const DEMO_ACCOUNTS = {
  admin: { name: 'Ada Admin', email: 'admin@example.com', phone: '+14155550100', password: 'admin1234' },
  seller: { name: 'Sam Seller', email: 'seller@example.com', phone: '+14155550101', password: 'seller1234' },
  buyer: { name: 'Bea Buyer', email: 'buyer@example.com', phone: '+14155550102', password: 'buyer1234' },
} as const;

async function insert(db: DB, table: string, rows: Row[]): Promise<Row[]> {
  const stamp = now();
  const out: Row[] = [];
  for (const row of rows) {
    out.push(await db.insertInto(table).values({ ...row, created_at: stamp, updated_at: stamp }).returningAll().executeTakeFirstOrThrow());
  }
  return out;
}

const isEmpty = async (db: DB, table: string) => !(await db.selectFrom(table).select('id').limit(1).executeTakeFirst());

const rowCount = async (db: DB, table: string) =>
  Number((await db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

/** Writes a declaration's rows into its table, each checked by the entity's rules as a save's payload is. */
async function insertDeclared(db: DB, resources: Registry, name: string, rows: readonly DeclaredRow[]) {
  const entity = resources.entity(name);
  const columns = rows.map((row) => ({
    ...(row.id === undefined ? {} : { id: readId(row.id) }),
    ...readPayload(entity, row, { create: true }),
  }));
  await insert(db, name, columns);
  if (columns.some((row) => row.id !== undefined)) await syncIdSequence(db, name);
}

/**
 * The reference rows each declaration gives (order statuses, the source currency's rate), into its
 * table while it is empty; rows keyed by a field (`keyedBy`), each one whose key the table lacks.
 */
export async function seedReference(db: DB, resources: Registry = registry) {
  for (const { name, rows } of resources.resources) {
    const reference = rows?.reference ?? [];
    if (!reference.length) continue;
    const key = rows?.keyedBy;
    if (key) {
      const held = new Set((await db.selectFrom(name).select(key).execute()).map((r) => String((r as Row)[key])));
      const missing = reference.filter((row) => !held.has(String(row[key])));
      if (missing.length) await insertDeclared(db, resources, name, missing);
    } else if (await isEmpty(db, name)) await insertDeclared(db, resources, name, reference);
  }
}

/**
 * The demo rows each declaration gives, into its table while it holds nothing but its reference rows:
 * an entity added to a marketplace already running in demo mode gets its rows too.
 */
async function seedDeclaredDemo(db: DB, resources: Registry) {
  for (const { name, rows } of resources.resources) {
    if (rows?.demo?.length && (await rowCount(db, name)) <= (rows.reference?.length ?? 0)) {
      await insertDeclared(db, resources, name, rows.demo);
    }
  }
}

export async function seedDemo(db: DB, resources: Registry = registry) {
  await seedDeclaredDemo(db, resources);
  if (!(await isEmpty(db, 'users'))) return;
  const a = DEMO_ACCOUNTS;
  const admin = await createUser(db, { ...a.admin, abilities: ADMIN_ABILITIES, granted: [...resources.assignable] });
  const seller = await createUser(db, { ...a.seller, abilities: REGISTER_ABILITIES });
  await createUser(db, { ...a.buyer, abilities: DEFAULT_ABILITIES });
  const other = await createUser(db, {
    name: 'Olu Okafor', email: 'olu@example.com', phone: '+2348030000000', password: 'olu-seller-1', abilities: REGISTER_ABILITIES,
  });

  const categories = await insert(db, 'categories', [
    { name: 'Fashion', commission_currency: 'USD', commission_flat_rate: 5, commission_monthly: 20, is_active: 1 },
    { name: 'Electronics', commission_currency: 'USD', commission_flat_rate: 7.5, commission_monthly: 35, is_active: 1 },
    { name: 'Home & Garden', commission_currency: 'GBP', commission_flat_rate: 4, commission_monthly: 15, is_active: 1 },
  ]);
  const subs = await insert(db, 'subcategories', [
    { category_id: categories[0].id, name: 'Shoes', serial: 'FAS-1' },
    { category_id: categories[0].id, name: 'Dresses', serial: 'FAS-2' },
    { category_id: categories[1].id, name: 'Phones', serial: 'ELE-1' },
    { category_id: categories[1].id, name: 'Laptops', serial: 'ELE-2' },
    { category_id: categories[2].id, name: 'Furniture', serial: 'HOM-1' },
  ]);

  const cities = [
    ['Lagos', 'Lagos', 'Nigeria', '100001'], ['London', 'England', 'United Kingdom', 'SW1A 1AA'],
    ['Monrovia', 'Montserrado', 'Liberia', '1000'], ['Austin', 'Texas', 'United States', '73301'],
  ];
  const shopRows: Row[] = [];
  for (let i = 1; i <= 18; i++) {
    const [city, state, country, zip] = cities[i % cities.length];
    const owner = i <= 12 ? seller : other;
    shopRows.push({
      owner_id: owner.id, name: `${owner === seller ? 'Sam' : 'Olu'}'s Store ${i}`, description: `Everyday goods, branch ${i}`,
      category_id: categories[i % 3].id, street_name: `${i} Market Street`, zip, city, state, country,
      bank_name: 'First Bank', bank_country: country, swift_code: 'FBNINGLA', sort_code: '20-00-00',
      account_name: String(owner.name), account_number: String(10000000 + i),
      paypal_email: i % 2 ? `shop${i}@example.com` : '', name_of_seller: i % 2 ? String(owner.name) : '', is_active: i % 5 ? 1 : 0,
    });
  }
  const shops = await insert(db, 'shops', shopRows);

  const productRows: Row[] = [];
  for (let i = 1; i <= 30; i++) {
    const at = i % shops.length;
    const shop = shops[at];
    const sub = subs[i % subs.length];
    productRows.push({
      // One currency per shop (resources/products: 'Unique Currency per Shop').
      shop_id: shop.id, name: `Product ${i}`, description: `A fine product number ${i}`, currency: at % 3 ? 'USD' : ['NGN', 'GBP', 'EUR'][(at / 3) % 3],
      price: 10 * i, sale_price: 9 * i, in_stock: i % 7 === 0 ? 0 : i, unit: 'cm', height: 10, width: 20, length: 30, weight: 1.5,
      sku: `SKU-${i}`, quantity: 1, state: i % 4 ? 'active' : 'draft', premier: i % 6 ? 'no' : 'yes',
      product_type: i % 5 ? 'new' : 'preown', image: JSON.stringify([]), category_id: sub.category_id, subcategory_id: sub.id,
      variety_option: JSON.stringify({ color: 'Blue', size: 'M' }), band_id: null, band_name: 'Acme',
    });
  }
  await insert(db, 'products', productRows);

  const types = ['commission', 'premier', 'advert'];
  await insert(db, 'subscriptions', types.flatMap((type, k) => [1, 2].map((n) => ({
    shop_id: shops[k + n].id, type, nature: 'listing', period: 'month', unit: '1', total_clicks: 100 * n, amount: 10 * (k + n),
    currency: 'USD', payment_gateway: 'paypal', start_date: '2026-01-01', end_date: '2026-12-31', is_active: 1,
  }))));
  await insert(db, 'applicants', [{ user_id: 3, title: 'Customer support agent', cv: '/files/docs/cv_3.docx', country: 'Nigeria', is_active: 1 }]);
  await insert(db, 'supports', [{ user_id: 3, title: 'Late delivery', message: 'My order has not arrived yet.', country: 'Liberia', is_active: 1 }]);
  await insert(db, 'deletions', [{ deletion_status: 'No action', customer: 'Bea Buyer', feedback: 'I no longer need my account.', customer_id: 3, is_active: 0 }]);
  await insert(db, 'chats', [{
    admin_online: 0, admin_name: null, received_time: null, user_name: 'Visitor', user_email: 'visitor@example.com',
    user_ip_address: '127.0.0.1', chats: JSON.stringify([{ sent: 1, recieved: 0, message: 'Hello, is anyone there?' }]), is_active: 1,
  }]);
  await seedReferenceScreens(db);
  await seedUsers(db);
  await seedOrders(db);
  // After the orders: spreads their dates over the last weeks for the dashboard's charts.
  await seedDashboard(db);
  // The orders' money: earnings, a refund, payouts (server/ledger/).
  await seedLedger(db);
  return { admin, seller };
}
