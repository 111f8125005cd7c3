/**
 * Payouts and monthly fees (issue 28).
 * - A payout pays a shop its whole available balance in a currency (available already nets any
 *   debt), to the shop's bank account, or PayPal when it has no bank account number, as the details
 *   were at that moment. The balance row is read locked, so two payouts asked for at once pay once.
 * - Settling: paid keeps the money paid out; failed returns it to available. Once only.
 * - Monthly fees: every active shop of a category with a commission_monthly is charged it once per
 *   calendar month, in the category's commission currency, from its available balance (a debt when
 *   there is not enough). The event key makes it once, whichever process charges it.
 */
import { minorText, toMinor, type PayoutState } from '../../contract';
import { badRequest, conflict, notFound } from '../errors';
import { sql } from 'kysely';
import type { DB, Row } from '../db';
import { balanceOf, post } from './core';

const PAYPAL = 'paypal';
const BANK = 'bank';

/** Where a shop is paid, and its details as they are now. */
function destinationOf(shop: Row): { method: string; destination: Row } | undefined {
  if (shop.account_number) {
    return {
      method: BANK,
      destination: {
        account_name: shop.account_name ?? null, account_number: shop.account_number, bank_name: shop.bank_name ?? null,
        bank_country: shop.bank_country ?? null, swift_code: shop.swift_code ?? null, sort_code: shop.sort_code ?? null,
      },
    };
  }
  if (shop.paypal_email) return { method: PAYPAL, destination: { paypal_email: shop.paypal_email, name_of_seller: shop.name_of_seller ?? null } };
  return undefined;
}

export interface PayoutRequest {
  shopId: number;
  currency: string;
  by: number | null;
  at: string;
}

/** Pays a shop out, in the caller's transaction; answers the payout's id, amount, currency and method. */
export async function createPayout(db: DB, request: PayoutRequest): Promise<{ id: number; amount: number; currency: string; method: string }> {
  const shop = await db.selectFrom('shops').selectAll().where('id', '=', request.shopId).executeTakeFirst();
  if (!shop) throw notFound(`Shop ${request.shopId} does not exist`);
  const currency = request.currency.trim().toUpperCase();
  const available = await balanceOf(db, 'available', request.shopId, currency, true);
  if (available <= 0) {
    throw badRequest(
      available < 0
        ? `${String(shop.name)} owes ${minorText(-available)} ${currency}: there is nothing to pay out`
        : `${String(shop.name)} has nothing available to pay out in ${currency}`,
    );
  }
  const to = destinationOf(shop);
  if (!to) throw badRequest(`${String(shop.name)} has no bank account or PayPal address to be paid to`);
  const row = await db
    .insertInto('payouts')
    .values({
      shop_id: request.shopId, currency, amount: available, state: 'pending', method: to.method, destination: JSON.stringify(to.destination),
      reference: null, created_by: request.by, created_at: request.at, updated_at: request.at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const id = Number(row.id);
  await post(db, {
    key: `payout:${id}`, kind: 'payout', currency, shopId: request.shopId, by: request.by, at: request.at,
    postings: [
      { account: 'available', shopId: request.shopId, amount: -available },
      { account: 'paid', shopId: request.shopId, amount: available },
    ],
  });
  return { id, amount: available, currency, method: to.method };
}

export interface Settlement {
  id: number;
  state: Exclude<PayoutState, 'pending'>;
  reference: string | null;
  by: number | null;
  at: string;
}

/** Settles a pending payout, once: paid, or failed (its amount back to available). */
export async function settlePayout(db: DB, settlement: Settlement): Promise<Row> {
  const claimed = await db
    .updateTable('payouts')
    .set({ state: settlement.state, reference: settlement.reference, settled_by: settlement.by, settled_at: settlement.at, updated_at: settlement.at })
    .where('id', '=', settlement.id)
    .where('state', '=', 'pending')
    .returningAll()
    .executeTakeFirst();
  if (!claimed) {
    const payout = await db.selectFrom('payouts').select('state').where('id', '=', settlement.id).executeTakeFirst();
    if (!payout) throw notFound(`Payout ${settlement.id} does not exist`);
    throw conflict(`Payout ${settlement.id} is already ${String(payout.state)}`);
  }
  if (settlement.state === 'failed') {
    const shopId = Number(claimed.shop_id);
    const amount = Number(claimed.amount);
    await post(db, {
      key: `payout_failed:${settlement.id}`, kind: 'payout_failed', currency: String(claimed.currency), shopId, by: settlement.by,
      at: settlement.at, memo: settlement.reference,
      postings: [
        { account: 'paid', shopId, amount: -amount },
        { account: 'available', shopId, amount },
      ],
    });
  }
  return claimed;
}

/** The month of a time, 'YYYY-MM' (UTC). */
export const monthOf = (at: number | string) => new Date(at).toISOString().slice(0, 7);

/**
 * Charges this month's fee to every active shop of a category with a commission_monthly that was
 * not charged yet, each in its own transaction (500 a run); answers how many were charged.
 */
export async function chargeMonthlyFees(db: DB, at: number): Promise<number> {
  const month = monthOf(at);
  const stamp = new Date(at).toISOString();
  const key = (shopId: unknown) => `fee:${String(shopId)}:${month}`;
  const due = await db
    .selectFrom('shops')
    .innerJoin('categories', 'categories.id', 'shops.category_id')
    .select(['shops.id as shop_id', 'categories.commission_monthly as fee', 'categories.commission_currency as currency'])
    .where('shops.is_active', '=', 1)
    .where('categories.commission_monthly', '>', 0)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('ledger_entries').select('id').where('event_key', '=', sql<string>`'fee:' || cast(shops.id as varchar(20)) || ${`:${month}`}`))),
    )
    .orderBy('shops.id')
    .limit(500)
    .execute();
  let charged = 0;
  for (const shop of due) {
    const shopId = Number(shop.shop_id);
    const amount = toMinor(shop.fee);
    if (amount <= 0) continue;
    const done = await db.transaction().execute((trx) =>
      post(trx, {
        key: key(shopId), kind: 'monthly_fee', currency: String(shop.currency || 'USD').toUpperCase(), shopId, at: stamp, memo: `Monthly fee ${month}`,
        postings: [
          { account: 'available', shopId, amount: -amount },
          { account: 'commission', shopId, amount },
        ],
      }),
    );
    if (done) charged++;
  }
  return charged;
}
