/**
 * The ledger's core (issue 28): one journal entry per money event, two or more postings summing to
 * zero in one currency, in integer minor units, written in the caller's transaction together with
 * the maintained balances. Idempotent: an event's key posts once, however often it is asked.
 */
import { sql } from 'kysely';
import type { Account, Balance, EntryKind } from '../../contract';
import { dialectOf, type DB, type Row } from '../db';

export interface PostingInput {
  account: Account;
  /** The shop the account belongs to (its pending, available, paid), or the shop the marketplace's line concerns. */
  shopId: number | null;
  amount: number;
}

export interface EntryInput {
  /** The event's key ('sale:12', 'refund:3'): the same key posts once. */
  key: string;
  kind: EntryKind;
  currency: string;
  shopId: number | null;
  orderId?: number | null;
  memo?: string | null;
  by?: number | null;
  at: string;
  postings: readonly PostingInput[];
}

/** Balances of the marketplace's own accounts are kept under shop 0. */
const MARKETPLACE = 0;

/** Accounts whose totals belong to a shop (the others are the marketplace's, kept per currency). */
const SHOP_ACCOUNTS: ReadonlySet<Account> = new Set(['pending', 'available', 'paid']);

/** Where a posting's total is kept: its shop for a shop's accounts, the marketplace otherwise. */
const holderOf = (p: PostingInput) => (SHOP_ACCOUNTS.has(p.account) ? Number(p.shopId) : MARKETPLACE);

/** Checks an entry: whole minor units, one currency, at least two lines, summing to zero. */
export function checkEntry(entry: EntryInput): PostingInput[] {
  const lines = entry.postings.filter((p) => p.amount !== 0);
  if (!entry.currency) throw new Error(`Entry ${entry.key} has no currency`);
  for (const p of lines) {
    if (!Number.isSafeInteger(p.amount)) throw new Error(`Entry ${entry.key}: ${p.amount} is not a whole number of minor units`);
    if (SHOP_ACCOUNTS.has(p.account) && !(Number(p.shopId) > 0)) throw new Error(`Entry ${entry.key}: ${p.account} needs a shop`);
  }
  const sum = lines.reduce((total, p) => total + p.amount, 0);
  if (sum !== 0) throw new Error(`Entry ${entry.key} does not balance (${sum})`);
  if (lines.length === 1) throw new Error(`Entry ${entry.key} has a single line`);
  return lines;
}

/**
 * Posts an entry in the caller's transaction: the entry, its postings, and the balances they move.
 * Answers the entry's id, or null when nothing moves or the event was already posted.
 */
export async function post(db: DB, entry: EntryInput): Promise<number | null> {
  const lines = checkEntry(entry);
  if (!lines.length) return null;
  const made = await db
    .insertInto('ledger_entries')
    .values({
      kind: entry.kind, event_key: entry.key, shop_id: entry.shopId, order_id: entry.orderId ?? null, currency: entry.currency,
      memo: entry.memo ?? null, created_by: entry.by ?? null, created_at: entry.at,
    })
    .onConflict((oc) => oc.column('event_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!made) return null;
  const entryId = Number(made.id);
  await db
    .insertInto('ledger_postings')
    .values(
      lines.map((p) => ({
        entry_id: entryId, account: p.account, shop_id: p.shopId, order_id: entry.orderId ?? null, currency: entry.currency,
        amount: p.amount, kind: entry.kind, created_at: entry.at,
      })),
    )
    .execute();
  // Totals move in one order (account, holder), so concurrent entries lock their rows in the same order.
  const totals = new Map<string, { account: Account; holder: number; amount: number }>();
  for (const p of lines) {
    const holder = holderOf(p);
    const key = `${p.account}\u0000${String(holder).padStart(12, '0')}`;
    const kept = totals.get(key) ?? { account: p.account, holder, amount: 0 };
    kept.amount += p.amount;
    totals.set(key, kept);
  }
  for (const key of [...totals.keys()].sort()) {
    const { account, holder, amount } = totals.get(key)!;
    if (amount === 0) continue;
    await db
      .insertInto('ledger_balances')
      .values({ account, shop_id: holder, currency: entry.currency, amount })
      .onConflict((oc) =>
        oc.columns(['account', 'shop_id', 'currency']).doUpdateSet({ amount: sql`${sql.ref('ledger_balances.amount')} + excluded.amount` }),
      )
      .execute();
  }
  return entryId;
}

/**
 * A shop's balance of one account and currency, from the maintained totals. With `lock` (a payout),
 * PostgreSQL locks the row until the transaction ends, so two payouts of one shop read it one after
 * the other; SQLite's write transactions already run one at a time.
 */
export async function balanceOf(db: DB, account: Account, shopId: number, currency: string, lock = false): Promise<number> {
  let query = db
    .selectFrom('ledger_balances')
    .select('amount')
    .where('account', '=', account)
    .where('shop_id', '=', shopId)
    .where('currency', '=', currency);
  if (lock && dialectOf(db) === 'postgres') query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row ? Number(row.amount) : 0;
}

/** Shops' balances per currency (every shop with a ledger when `shopIds` is undefined). */
export async function shopBalances(db: DB, shopIds?: readonly number[]): Promise<Balance[]> {
  if (shopIds && !shopIds.length) return [];
  let query = db
    .selectFrom('ledger_balances')
    .leftJoin('shops', 'shops.id', 'ledger_balances.shop_id')
    .select(['ledger_balances.account as account', 'ledger_balances.shop_id as shop_id', 'ledger_balances.currency as currency', 'ledger_balances.amount as amount', 'shops.name as shop_name'])
    .where('ledger_balances.account', 'in', [...SHOP_ACCOUNTS])
    .where('ledger_balances.shop_id', '>', MARKETPLACE);
  if (shopIds) query = query.where('ledger_balances.shop_id', 'in', shopIds);
  const rows = await query.orderBy('ledger_balances.shop_id').orderBy('ledger_balances.currency').execute();
  const out = new Map<string, Balance>();
  for (const r of rows as Row[]) {
    const key = `${String(r.shop_id)}:${String(r.currency)}`;
    let b = out.get(key);
    if (!b) {
      b = { shop_id: Number(r.shop_id), shop_name: r.shop_name == null ? undefined : String(r.shop_name), currency: String(r.currency), pending: 0, available: 0, paid: 0, debt: 0 };
      out.set(key, b);
    }
    const amount = Number(r.amount);
    if (r.account === 'pending') b.pending = amount;
    else if (r.account === 'paid') b.paid = amount;
    else {
      // Available below zero is a debt the shop carries, netted against its next payout.
      b.available = Math.max(0, amount);
      b.debt = Math.max(0, -amount);
    }
  }
  return [...out.values()];
}
