/**
 * The ledger's core (issue 28): one journal entry per money event, two or more postings summing to
 * zero in one currency, in integer minor units, written in the caller's transaction together with
 * the maintained balances. Idempotent: an event's key posts once, however often it is asked.
 */
import { sql } from 'kysely';
import { currencyCode, pageOf, type Account, type Balance, type EntryKind, type Paginated } from '../../contract';
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
  // One line that moves money never sums to zero: an entry is two lines or more, or none.
  if (sum !== 0) throw new Error(`Entry ${entry.key} does not balance (${sum})`);
  return lines;
}

/**
 * Posts an entry in the caller's transaction: the entry, its postings, and the balances they move.
 * Answers the entry's id, or null when nothing moves or the event was already posted.
 */
export const post = async (db: DB, entry: EntryInput): Promise<number | null> => (await postAll(db, [entry]))[0];

/**
 * Posts entries in the caller's transaction, in three statements whatever their number: the entries,
 * their postings, and the balances they move. Answers each entry's id, or null when nothing moves or
 * its event was already posted (an event named twice in the call posts once, the first time).
 */
export async function postAll(db: DB, entries: readonly EntryInput[]): Promise<(number | null)[]> {
  const answers: (number | null)[] = entries.map(() => null);
  const keys = new Set<string>();
  // One form of each currency code ('usd' books as 'USD'), whoever asked for the entry.
  const moving = entries
    .map((given, at) => ({ entry: { ...given, currency: currencyCode(given.currency) }, at, lines: checkEntry(given) }))
    .filter(({ entry, lines }) => lines.length > 0 && !keys.has(entry.key) && Boolean(keys.add(entry.key)));
  if (!moving.length) return answers;
  const made = await db
    .insertInto('ledger_entries')
    .values(moving.map(({ entry }) => ({
      kind: entry.kind, event_key: entry.key, shop_id: entry.shopId, order_id: entry.orderId ?? null, currency: entry.currency,
      memo: entry.memo ?? null, created_by: entry.by ?? null, created_at: entry.at,
    })))
    .onConflict((oc) => oc.column('event_key').doNothing())
    .returning(['id', 'event_key'])
    .execute();
  const idOf = new Map(made.map((row) => [String(row.event_key), Number(row.id)]));
  const posted = moving.filter(({ entry }) => idOf.has(entry.key)).map((p) => ({ ...p, id: idOf.get(p.entry.key)! }));
  if (!posted.length) return answers;
  await db
    .insertInto('ledger_postings')
    .values(posted.flatMap(({ entry, lines: postings, id }) =>
      postings.map((p) => ({
        entry_id: id, account: p.account, shop_id: p.shopId, order_id: entry.orderId ?? null, currency: entry.currency,
        amount: p.amount, kind: entry.kind, created_at: entry.at,
      }))))
    .execute();
  // Totals move in one order (account, holder, currency), so concurrent entries lock their rows in the same order.
  const totals = new Map<string, { account: Account; holder: number; currency: string; amount: number }>();
  for (const { entry, lines: postings } of posted) {
    for (const p of postings) {
      const holder = holderOf(p);
      const key = `${p.account}\u0000${String(holder).padStart(12, '0')}\u0000${entry.currency}`;
      const kept = totals.get(key) ?? { account: p.account, holder, currency: entry.currency, amount: 0 };
      kept.amount += p.amount;
      totals.set(key, kept);
    }
  }
  const moved = [...totals.keys()].sort().map((key) => totals.get(key)!).filter((t) => t.amount !== 0);
  if (moved.length) {
    await db
      .insertInto('ledger_balances')
      .values(moved.map(({ account, holder, currency, amount }) => ({ account, shop_id: holder, currency, amount })))
      .onConflict((oc) =>
        oc.columns(['account', 'shop_id', 'currency']).doUpdateSet({ amount: sql`${sql.ref('ledger_balances.amount')} + excluded.amount` }),
      )
      .execute();
  }
  for (const { at, id } of posted) answers[at] = id;
  return answers;
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

/** Shops' balances from the maintained totals: one row per shop and currency, the newest shop first, then by currency. */
function balanceRows(db: DB, shopIds?: readonly number[]) {
  const part = (account: Account) =>
    sql<number>`sum(case when ${sql.ref('ledger_balances.account')} = ${account} then ${sql.ref('ledger_balances.amount')} else 0 end)`;
  let query = db
    .selectFrom('ledger_balances')
    .where('ledger_balances.account', 'in', [...SHOP_ACCOUNTS])
    .where('ledger_balances.shop_id', '>', MARKETPLACE);
  if (shopIds) query = query.where('ledger_balances.shop_id', 'in', shopIds);
  return {
    query,
    rows: query
      .leftJoin('shops', 'shops.id', 'ledger_balances.shop_id')
      .select([
        'ledger_balances.shop_id as shop_id', 'ledger_balances.currency as currency', 'shops.name as shop_name',
        part('pending').as('pending'), part('available').as('available'), part('paid').as('paid'),
      ])
      .groupBy(['ledger_balances.shop_id', 'ledger_balances.currency', 'shops.name'])
      .orderBy('ledger_balances.shop_id', 'desc')
      .orderBy('ledger_balances.currency'),
  };
}

/** A row of balanceRows as answered: available below zero is a debt the shop carries, netted against its next payout. */
const balanceOfRow = (r: Row): Balance => {
  const available = Number(r.available);
  return {
    shop_id: Number(r.shop_id), shop_name: r.shop_name == null ? undefined : String(r.shop_name), currency: String(r.currency),
    pending: Number(r.pending), available: Math.max(0, available), paid: Number(r.paid), debt: Math.max(0, -available),
  };
};

/** Shops' balances per currency, every row of the shops named (a shop's, a seller's own). */
export async function shopBalances(db: DB, shopIds: readonly number[]): Promise<Balance[]> {
  if (!shopIds.length) return [];
  return (await balanceRows(db, shopIds).rows.execute()).map(balanceOfRow);
}

/** One page of shops' balances per currency: every shop's (an admin), or the shops named (a seller's own). */
export async function balancePage(db: DB, q: { page: number; perPage: number; shopIds?: readonly number[] }): Promise<Paginated<Balance>> {
  if (q.shopIds && !q.shopIds.length) return pageOf([], 0, q.page, q.perPage);
  const { query, rows } = balanceRows(db, q.shopIds);
  const keys = query.select(['ledger_balances.shop_id', 'ledger_balances.currency']).groupBy(['ledger_balances.shop_id', 'ledger_balances.currency']);
  const counted = await db.selectFrom(keys.as('k')).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
  const page = await rows.limit(q.perPage).offset((q.page - 1) * q.perPage).execute();
  return pageOf(page.map(balanceOfRow), Number(counted.n), q.page, q.perPage);
}
