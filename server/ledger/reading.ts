/**
 * Reading the ledger (issue 28): postings page by page, a shop's monthly statement as CSV, and the
 * commissions report. Balances are read from the maintained totals (core.ts), never summed here.
 */
import { sql } from 'kysely';
import { OWED_ACCOUNTS, minorText, pageOf, toCsv, type Account, type CommissionRow, type Paginated, type Posting } from '../../contract';
import type { DB, Row } from '../db';

export interface LedgerQuery {
  page: number;
  perPage: number;
  /** Only postings of these shops (a seller's own). */
  shopIds?: readonly number[];
  orderId?: number;
  /** Only postings of these accounts (a seller's: SELLER_ACCOUNTS). */
  accounts?: readonly Account[];
}

/** The postings, newest first, in the list's paginated shape. */
export async function ledgerPage(db: DB, q: LedgerQuery): Promise<Paginated<Posting>> {
  let query = db.selectFrom('ledger_postings');
  if (q.shopIds) query = q.shopIds.length ? query.where('shop_id', 'in', q.shopIds) : query.where(sql<boolean>`1 = 0`);
  if (q.orderId !== undefined) query = query.where('order_id', '=', q.orderId);
  if (q.accounts) query = query.where('account', 'in', q.accounts);
  const total = Number((await query.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);
  const rows = await query
    .select(['id', 'entry_id', 'account', 'shop_id', 'order_id', 'currency', 'amount', 'kind', 'created_at'])
    .orderBy('id', 'desc')
    .limit(q.perPage)
    .offset((q.page - 1) * q.perPage)
    .execute();
  const data = rows.map((r) => ({
    id: Number(r.id), entry_id: Number(r.entry_id), account: r.account as Account, shop_id: r.shop_id == null ? null : Number(r.shop_id),
    order_id: r.order_id == null ? null : Number(r.order_id), currency: String(r.currency), amount: Number(r.amount),
    kind: r.kind as Posting['kind'], created_at: String(r.created_at),
  }));
  return pageOf(data, total, q.page, q.perPage);
}

/** 'YYYY-MM' → the month's first instant and the next month's, as stored times. */
export function monthRange(month: string): { start: string; end: string } {
  const [year, mon] = month.split('-').map(Number);
  const start = new Date(Date.UTC(year, mon - 1, 1)).toISOString();
  const end = new Date(Date.UTC(year, mon, 1)).toISOString();
  return { start, end };
}

/** What a statement line of a posting on the other side of the shop's balance is called. */
function lineType(posting: Row): string {
  switch (posting.account) {
    case 'buyer_payments':
      return 'sale';
    case 'commission':
      return posting.kind === 'monthly_fee' ? 'fee' : 'commission';
    case 'refunds':
      return 'refund';
    default:
      return posting.kind === 'payout_failed' ? 'payout returned' : 'payout';
  }
}

/**
 * A shop's statement of a month, per currency: the opening balance (what the marketplace owed the
 * shop: pending and available), each sale, commission, refund, fee and payout as it moved that
 * balance, and the closing balance. Amounts in the currency's units with 2 decimals.
 */
export async function statementCsv(db: DB, shopId: number, month: string): Promise<string> {
  const { start, end } = monthRange(month);
  const opening = await db
    .selectFrom('ledger_postings')
    .select(['currency', sql<number>`coalesce(sum(amount), 0)`.as('amount')])
    .where('shop_id', '=', shopId)
    .where('account', 'in', [...OWED_ACCOUNTS])
    .where('created_at', '<', start)
    .groupBy('currency')
    .execute();
  const moves = await db
    .selectFrom('ledger_postings')
    .leftJoin('ledger_entries', 'ledger_entries.id', 'ledger_postings.entry_id')
    .select([
      'ledger_postings.entry_id as entry_id', 'ledger_postings.account as account', 'ledger_postings.kind as kind',
      'ledger_postings.order_id as order_id', 'ledger_postings.currency as currency', 'ledger_postings.amount as amount',
      'ledger_postings.created_at as created_at', 'ledger_entries.memo as memo',
    ])
    .where('ledger_postings.shop_id', '=', shopId)
    .where('ledger_postings.account', 'not in', [...OWED_ACCOUNTS])
    .where('ledger_postings.created_at', '>=', start)
    .where('ledger_postings.created_at', '<', end)
    .orderBy('ledger_postings.entry_id')
    .orderBy('ledger_postings.id')
    .execute();
  const balance = new Map<string, number>(opening.map((o) => [String(o.currency), Number(o.amount)]));
  for (const m of moves) if (!balance.has(String(m.currency))) balance.set(String(m.currency), 0);
  const rows: string[][] = [['date', 'type', 'order_id', 'entry_id', 'description', 'currency', 'amount', 'balance']];
  for (const currency of [...balance.keys()].sort()) {
    let running = balance.get(currency)!;
    rows.push([start.slice(0, 10), 'opening balance', '', '', '', currency, '', minorText(running)]);
    for (const m of moves.filter((x) => x.currency === currency)) {
      // The other side of the shop's balance: a sale's payment in moves it up, a commission down.
      const amount = -Number(m.amount);
      running += amount;
      rows.push([
        String(m.created_at).slice(0, 10), lineType(m), m.order_id == null ? '' : String(m.order_id), String(m.entry_id),
        m.memo == null ? '' : String(m.memo), currency, minorText(amount), minorText(running),
      ]);
    }
    const last = new Date(new Date(end).getTime() - 1).toISOString().slice(0, 10);
    rows.push([last, 'closing balance', '', '', '', currency, '', minorText(running)]);
  }
  return `${toCsv(rows)}\r\n`;
}


/** Commissions earned per month, category (the shop's), shop and currency, between two days. */
export async function commissionReport(db: DB, from: string, to: string): Promise<CommissionRow[]> {
  const month = sql<string>`substr(ledger_postings.created_at, 1, 7)`;
  const rows = await db
    .selectFrom('ledger_postings')
    .leftJoin('shops', 'shops.id', 'ledger_postings.shop_id')
    .leftJoin('categories', 'categories.id', 'shops.category_id')
    .select([
      month.as('month'), 'ledger_postings.shop_id as shop_id', 'shops.name as shop_name', 'shops.category_id as category_id',
      'categories.name as category_name', 'ledger_postings.currency as currency', sql<number>`sum(ledger_postings.amount)`.as('amount'),
    ])
    .where('ledger_postings.account', '=', 'commission')
    .where('ledger_postings.created_at', '>=', from)
    .where('ledger_postings.created_at', '<', to)
    .groupBy([month, 'ledger_postings.shop_id', 'shops.name', 'shops.category_id', 'categories.name', 'ledger_postings.currency'])
    .orderBy('month')
    .orderBy('ledger_postings.shop_id')
    .execute();
  return rows.map((r) => ({
    month: String(r.month), category_id: r.category_id == null ? null : Number(r.category_id), category_name: (r.category_name as string | null) ?? null,
    shop_id: Number(r.shop_id), shop_name: (r.shop_name as string | null) ?? null, currency: String(r.currency), amount: Number(r.amount),
  }));
}
