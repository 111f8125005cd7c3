/**
 * Demo data of the reference screens: plans, subscriptions (one waiting for an
 * administrator), job posts, support messages, shipping classes, mile prices, distances and
 * deletion requests, beside the few rows seedDemo already makes.
 */
import { now, type DB, type Row } from '../db';

async function insert(db: DB, table: string, rows: Row[]) {
  const stamp = now();
  for (const row of rows) await db.insertInto(table).values({ ...row, created_at: stamp, updated_at: stamp }).execute();
}

export async function seedReferenceScreens(db: DB) {
  const shops = await db.selectFrom('shops').select(['id']).orderBy('id').limit(3).execute();
  const buyer = await db.selectFrom('users').select(['id', 'name']).where('email', '=', 'buyer@example.com').executeTakeFirst();
  await insert(db, 'subscriptionPlans', [
    { type: 'commission', nature: 'store', period: 'year', unit: '1', total_clicks: 0, amount: 199, currency: 'USD', is_active: 1 },
  ]);
  await insert(db, 'subscriptions', [
    {
      shop_id: 0, type: 'advert', nature: 'banner', period: 'month', unit: '1', total_clicks: 250, amount: 49, currency: 'USD',
      payment_gateway: 'bank', start_date: '2026-02-01', end_date: '2026-03-01', is_active: 0,
    },
    ...(shops[0] ? [{
      shop_id: shops[0].id, type: 'premier', nature: 'listing', period: 'week', unit: '1', total_clicks: 500, amount: 19, currency: 'USD',
      payment_gateway: 'none', start_date: '2026-11-01', end_date: '2026-11-08', is_active: 0,
    }] : []),
  ]);
  await insert(db, 'jobs', [
    {
      title: 'Marketplace operations analyst', description: 'Watch the health of the marketplace.', qualification: 'Two years in e-commerce',
      details: 'Hybrid, London office', expiry: '30/06/2027', state: 'England', country: 'United Kingdom', is_active: 1,
    },
    {
      title: 'Seller success manager', description: 'Help new sellers open their shops.', qualification: 'Account management',
      details: 'On site', expiry: '15/01/2027', state: 'Montserrado', country: 'Liberia', is_active: 0,
    },
  ]);
  if (buyer) {
    await insert(db, 'supports', [
      { user_id: buyer.id, title: 'Wrong size received', message: 'I ordered size M and received size L.', country: 'Nigeria', is_active: 1 },
    ]);
  }
  await insert(db, 'shippings', [{ duration: 'Same day', currency: 'USD', amount: 40, means: 'Courier', note: 'Within the city only', is_active: 1 }]);
  await insert(db, 'miles', [
    { country: 'United Kingdom', currency: 'USD', value_per_mile: 1.2, is_active: 1 },
    { country: 'Liberia', currency: 'USD', value_per_mile: 0.35, is_active: 1 },
  ]);
  await insert(db, 'distances', [
    { location_A: 'United Kingdom,England,London', location_B: 'United Kingdom,England,Manchester', distance_km: 262 },
    { location_A: 'Liberia,Montserrado,Monrovia', location_B: 'Liberia,Margibi,Kakata', distance_km: 56 },
  ]);
}
