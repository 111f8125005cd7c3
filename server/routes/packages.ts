/**
 * Packages (the named route /packages): a seller (only a seller: contract/calls.ts, checked by the
 * route's gate before anything else) sees the active subscription plans and subscribes
 * one of their own shops. The new subscription waits, inactive, until an administrator activates it
 * on the Subscriptions screen; no payment is taken here (there is no payment gateway).
 * Extensions of the contract: in strict mode these endpoints do not exist.
 *
 * - POST /packages {}: HLL {plans: active plans, subscriptions: those of the caller's shops}.
 * - POST /package/subscribe {plan_id, shop_id}: the plan's terms copied onto a new subscription, for
 *   an active shop of the caller's.
 */
import type { FastifyInstance } from 'fastify';
import { bodyOf, type AppContext } from '../context';
import { now, type DB } from '../db';
import { badRequest, conflict, forbidden } from '../errors';
import { requireCaller } from '../guard';
import { readId } from '../records';
import { ok } from './common';

const PERIOD_DAYS: Record<string, number> = { day: 1, week: 7, month: 30, year: 365 };

/** The date a subscription of `unit` × `period` started today ends (yyyy-mm-dd). */
export function endDate(start: Date, period: unknown, unit: unknown): string {
  const days = PERIOD_DAYS[String(period ?? '').trim().toLowerCase().replace(/s$/, '')] ?? 30;
  const count = Math.min(Math.max(Number.parseInt(String(unit ?? '1'), 10) || 1, 1), 120);
  const end = new Date(start.getTime());
  if (days === 30 || days === 365) end.setUTCMonth(end.getUTCMonth() + count * (days === 30 ? 1 : 12));
  else end.setUTCDate(end.getUTCDate() + count * days);
  return end.toISOString().slice(0, 10);
}

const ownShops = (db: DB, userId: number) => db.selectFrom('shops').select('id').where('owner_id', '=', userId);

export async function packageRoutes(app: FastifyInstance, { db, config }: AppContext) {
  if (config.strict) return;

  app.post('/packages', async (request) => {
    const caller = requireCaller(request.caller);
    const plans = await db.selectFrom('subscriptionPlans').selectAll().where('is_active', '=', 1).orderBy('amount').orderBy('id').execute();
    const subscriptions = await db
      .selectFrom('subscriptions')
      .innerJoin('shops', 'shops.id', 'subscriptions.shop_id')
      .selectAll('subscriptions')
      .select('shops.name as shop_name')
      .where('subscriptions.shop_id', 'in', ownShops(db, caller.id))
      .orderBy('subscriptions.id', 'desc')
      .limit(200)
      .execute();
    return ok({ HLL: { plans, subscriptions } });
  });

  app.post('/package/subscribe', async (request) => {
    const caller = requireCaller(request.caller);
    const body = bodyOf(request);
    const planId = readId(body.plan_id, 'plan_id');
    const shopId = readId(body.shop_id, 'shop_id');
    return db.transaction().execute(async (trx) => {
      const shop = await trx.selectFrom('shops').select(['id', 'name', 'owner_id', 'is_active']).where('id', '=', shopId).executeTakeFirst();
      if (!shop || Number(shop.owner_id) !== caller.id) throw forbidden('You can only subscribe your own shops');
      if (Number(shop.is_active) !== 1) throw badRequest(`${String(shop.name)} is deactivated: only an active shop can subscribe to a package`);
      const plan = await trx.selectFrom('subscriptionPlans').selectAll().where('id', '=', planId).executeTakeFirst();
      if (!plan || Number(plan.is_active) !== 1) throw badRequest('This package is not available');
      const today = new Date();
      const start = today.toISOString().slice(0, 10);
      const same = await trx
        .selectFrom('subscriptions')
        .select(['id', 'is_active'])
        .where('shop_id', '=', shopId)
        .where('type', '=', plan.type as string)
        .where('nature', '=', plan.nature as string)
        .where((eb) => eb.or([eb('is_active', '=', 0), eb('end_date', '>=', start)]))
        .executeTakeFirst();
      if (same) {
        throw conflict(
          Number(same.is_active) === 1
            ? `${String(shop.name)} already has this package`
            : `${String(shop.name)} already has this package waiting for activation`,
        );
      }
      const stamp = now();
      const row = await trx
        .insertInto('subscriptions')
        .values({
          shop_id: shopId, type: plan.type, nature: plan.nature, period: plan.period, unit: plan.unit,
          total_clicks: plan.total_clicks, amount: plan.amount, currency: plan.currency ?? 'USD', payment_gateway: 'none',
          start_date: start, end_date: endDate(today, plan.period, plan.unit), is_active: 0, created_at: stamp, updated_at: stamp,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return ok({
        query: `${String(shop.name)} is subscribed; the package starts once an administrator activates it`,
        detail: { ...row, shop_name: shop.name },
      });
    });
  });
}
