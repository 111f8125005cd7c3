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
  if (buyer) {
    await insert(db, 'supports', [
      { user_id: buyer.id, title: 'Wrong size received', message: 'I ordered size M and received size L.', country: 'Nigeria', is_active: 1 },
    ]);
  }
}
