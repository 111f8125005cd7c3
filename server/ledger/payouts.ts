/**
 * Payouts and monthly fees (issue 28).
 * - A payout pays a shop its whole available balance in a currency (available already nets any
 *   debt), to the shop's bank account, or PayPal when it has no bank account number, as the details
 *   were at that moment. The balance row is read locked, so two payouts asked for at once pay once.
 * - Settling: paid keeps the money paid out; failed returns it to available. Once only.
 * - Monthly fees: every active shop of a category with a commission_monthly is charged it once per
 *   calendar month, in the category's commission currency, from its available balance (a debt when
 *   there is not enough). The event key makes it once, whichever process charges it. The month's
 *   pass charges the shops there when it began; a shop's own save charges it when it becomes due.
 */
import { currencyCode, minorText, toMinor, type PayoutState } from '../../contract';
import { badRequest, conflict, notFound } from '../errors';
import type { DB, Row } from '../db';
import { balanceOf, post, postAll, type EntryInput } from './core';

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
  const currency = currencyCode(request.currency);
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

/** How many shops one transaction of a month's fee pass charges at most. */
export const FEE_BATCH = 50;

/** How long one run of the fee pass goes on before it leaves the rest to the next run, in ms. */
export const FEE_RUN_MS = 20_000;

const feeKey = (shopId: number, month: string) => `fee:${shopId}:${month}`;

/** The active shops of a category with a fee above 0, with their fee and its currency. */
const dueShops = (db: DB) =>
  db
    .selectFrom('shops')
    .innerJoin('categories', 'categories.id', 'shops.category_id')
    .select(['shops.id as shop_id', 'categories.commission_monthly as fee', 'categories.commission_currency as currency'])
    .where('shops.is_active', '=', 1)
    .where('categories.commission_monthly', '>', 0);

/** A shop's fee of a month as a ledger entry (its event key makes it once), or none when it cannot be charged. */
function feeEntry(shop: Row, month: string, stamp: string): EntryInput | undefined {
  const shopId = Number(shop.shop_id);
  const amount = toMinor(shop.fee);
  // A fee too large to count in minor units (an admin's slip) is not charged: it would stop the pass.
  if (amount <= 0 || !Number.isSafeInteger(amount)) return undefined;
  return {
    key: feeKey(shopId, month), kind: 'monthly_fee', currency: currencyCode(shop.currency), shopId, at: stamp, memo: `Monthly fee ${month}`,
    postings: [
      { account: 'available', shopId, amount: -amount },
      { account: 'commission', shopId, amount },
    ],
  };
}

/**
 * Charges one shop this month's fee if it is due (active, in a category with a fee) and not charged
 * yet, in the caller's transaction: a shop that joins, is switched on or moves to a category with a
 * fee pays the month with the save that makes it due. Answers whether it was charged now.
 */
export async function chargeShopFee(db: DB, shopId: number, at: number): Promise<boolean> {
  const shop = await dueShops(db).where('shops.id', '=', shopId).executeTakeFirst();
  const entry = shop && feeEntry(shop, monthOf(at), new Date(at).toISOString());
  return entry ? (await post(db, entry)) !== null : false;
}

/**
 * Starts this month's pass again from the first shop, in the caller's transaction: a category whose
 * fee rises from nothing makes its shops due behind the pass (charged already pay nothing twice).
 */
export async function restartFeePass(db: DB, at: number): Promise<void> {
  const until = await lastShopId(db);
  await db
    .updateTable('fee_passes')
    .set({ through_id: 0, until_id: until, done_at: null, updated_at: new Date(at).toISOString() })
    .where('month', '=', monthOf(at))
    .execute();
}

const lastShopId = async (db: DB) =>
  Number((await db.selectFrom('shops').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst())?.id ?? 0);

export interface FeeRunOptions {
  /** Shops a transaction charges at most (FEE_BATCH). */
  batch?: number;
  /** How long the run goes on before leaving the rest to the next run, in ms (FEE_RUN_MS); at least one batch is done. */
  budgetMs?: number;
  /** Asked between batches: true once the process is stopping. */
  stopping?: () => boolean;
}

/**
 * Each month's fees, charged by a pass through the shops that were there when the month's first run
 * began (fee_passes: up to until_id), in id order, a batch per transaction: each batch's entries (in
 * three statements) and the pass's new place (through_id) are written together, so a crash loses
 * nothing and charges nothing twice, and processes running at once take the batches one after another
 * (the pass's row is claimed first). A run goes on from where the last one stopped, the oldest month
 * not done first, until its time is up; shops created since the pass began are charged by their own
 * save (chargeShopFee). Answers how many fees it charged.
 */
export async function chargeMonthlyFees(db: DB, at: number, options: FeeRunOptions = {}): Promise<number> {
  const { batch = FEE_BATCH, budgetMs = FEE_RUN_MS, stopping = () => false } = options;
  const stamp = new Date(at).toISOString();
  const month = monthOf(at);
  const current = await db.selectFrom('fee_passes').select('id').where('month', '=', month).executeTakeFirst();
  if (!current) {
    const until = await lastShopId(db);
    await db
      .insertInto('fee_passes')
      .values({ month, through_id: 0, until_id: until, done_at: null, updated_at: stamp })
      .onConflict((oc) => oc.column('month').doNothing())
      .execute();
  }
  const started = performance.now();
  let charged = 0;
  for (;;) {
    const open = await db.selectFrom('fee_passes').select('month').where('done_at', 'is', null).where('month', '<=', month)
      .orderBy('month').executeTakeFirst();
    if (!open) return charged;
    charged += await db.transaction().execute((trx) => feeBatch(trx, String(open.month), stamp, batch));
    if (stopping() || performance.now() - started >= budgetMs) return charged;
    // Between two batches, the requests waiting for the database go first.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** One batch of a month's pass, in its transaction: answers how many fees it charged. */
async function feeBatch(db: DB, month: string, stamp: string, batch: number): Promise<number> {
  // Claimed first: another process's batch of the same month waits here for this one to end, then reads where it stopped.
  const pass = await db
    .updateTable('fee_passes')
    .set({ updated_at: stamp })
    .where('month', '=', month)
    .where('done_at', 'is', null)
    .returning(['through_id', 'until_id'])
    .executeTakeFirst();
  if (!pass) return 0;
  const through = Number(pass.through_id);
  const until = Number(pass.until_id);
  const due = await dueShops(db).where('shops.id', '>', through).where('shops.id', '<=', until).orderBy('shops.id').limit(batch).execute();
  const entries = due.map((shop) => feeEntry(shop, month, stamp)).filter((entry) => entry !== undefined);
  const charged = (await postAll(db, entries)).filter((id) => id !== null).length;
  const done = due.length < batch;
  await db
    .updateTable('fee_passes')
    .set({ through_id: done ? until : Number(due[due.length - 1].shop_id), done_at: done ? stamp : null })
    .where('month', '=', month)
    .execute();
  return charged;
}
