/**
 * The marketplace's money (issue 28): a double-entry ledger in integer minor units. Every money
 * movement is one journal entry of postings that sum to zero in one currency; a shop's balances are
 * its accounts' totals. What the console and the server share: accounts, entry kinds, the calls and
 * the shapes of their answers. The rules live in server/ledger/.
 *
 * Accounts (a posting's `account`); a positive amount is money the account holds:
 * - buyer_payments: money received from buyers (negative: it came from outside);
 * - pending, available, paid: a shop's earnings on hold, free to pay out, and paid out; available
 *   below zero is a debt, netted against the next payout;
 * - commission: the marketplace's revenue (commissions on sales and monthly fees);
 * - refunds: money given back to buyers.
 */
import type { CallSpec } from './calls';
import { i, j, s } from './entity';

export const ACCOUNTS = ['buyer_payments', 'pending', 'available', 'paid', 'commission', 'refunds'] as const;
export type Account = (typeof ACCOUNTS)[number];

/** The accounts that hold what the marketplace owes a shop (a statement's balance). */
export const OWED_ACCOUNTS: readonly Account[] = ['pending', 'available'];

/**
 * The accounts a seller reads on their own shops: their money (pending, available, paid) and the
 * commission the marketplace took on their sales and fees (a deduction). Buyers' payments and the
 * refunds given back are the marketplace's accounts.
 */
export const SELLER_ACCOUNTS: readonly Account[] = ['pending', 'available', 'paid', 'commission'];

/** What caused an entry. */
export const ENTRY_KINDS = ['sale', 'release', 'refund', 'monthly_fee', 'payout', 'payout_failed'] as const;
export type EntryKind = (typeof ENTRY_KINDS)[number];

export const PAYOUT_STATES = ['pending', 'paid', 'failed'] as const;
export type PayoutState = (typeof PAYOUT_STATES)[number];

/** How long earnings stay pending after delivery, when PAYOUT_HOLD_DAYS is not set. */
export const DEFAULT_PAYOUT_HOLD_DAYS = 14;

/** One shop's money in one currency, in minor units. */
export interface Balance {
  shop_id: number;
  shop_name?: string;
  currency: string;
  pending: number;
  available: number;
  paid: number;
  debt: number;
}

/** One line of the ledger, in minor units (signed). */
/** A line of the commissions report: earned per month, category, shop and currency. */
export interface CommissionRow {
  month: string;
  category_id: number | null;
  category_name: string | null;
  shop_id: number;
  shop_name: string | null;
  currency: string;
  /** Commissions and fees less what refunds gave back, in minor units. */
  amount: number;
}

export interface Posting {
  id: number;
  entry_id: number;
  account: Account;
  shop_id: number | null;
  order_id: number | null;
  currency: string;
  amount: number;
  kind: EntryKind;
  created_at: string;
}

/** The part `rate` % of `amount` minor units, rounded to the nearest unit (a line's commission). */
export const percentOf = (amount: number, rate: number) => Math.round(Number(((amount * rate) / 100).toFixed(6)));

/** A line of an order as the ledger froze it when the order was paid (the order dialog shows it). */
export interface EarnedLine {
  product_id: number;
  quantity: number;
  amount: number;
  rate: number;
  commission: number;
  net: number;
}

export const LEDGER_PATHS = {
  balances: '/balances',
  ledger: '/ledger',
  statement: '/statement',
  refund: '/refund',
  payout: '/payout',
  payoutStatus: '/payout/status',
  payouts: '/payouts',
  batch: '/payouts/batch',
  commissions: '/commissions/report',
} as const;

/** The access token of the Payouts screen and of every payout call. */
export const PAYOUTS_TOKEN = 'payouts';
/** The access token refunds need (an admin holding Orders). */
export const REFUNDS_TOKEN = 'orders';

const SELLER_ADMIN = ['seller', 'admin'] as const;
const SELLERS_OWN = `a seller for their own shops, or an admin holding '${PAYOUTS_TOKEN}'`;

/** JSON Schema of the answers: objects by their required keys, lists, pages. */
const int = { type: 'integer' };
const str = { type: 'string' };
const shaped = (properties: Record<string, unknown>) => ({ type: 'object', properties, required: Object.keys(properties) });
const list = (items: Record<string, unknown>) => ({ type: 'array', items });
const page = (items: Record<string, unknown>) =>
  shaped({ data: list(items), total: int, from: { type: ['integer', 'null'] }, to: { type: ['integer', 'null'] }, current_page: int, last_page: int, per_page: int });
const BALANCE = shaped({ shop_id: int, currency: str, pending: int, available: int, paid: int, debt: int });
const MADE = shaped({ id: int, amount: int });
const PAYOUT = shaped({ id: int, shop_id: int, currency: str, amount: int, state: str });
const CSV = ['text/csv'];

export const LEDGER_CALLS: readonly CallSpec[] = [
  {
    method: 'POST', path: LEDGER_PATHS.balances, summary: 'Balances per shop and currency in minor units: {shop_id, currency, pending, available, paid, debt}; {shop_id} answers that shop\'s rows, otherwise a page ({page, per_page})', roles: SELLER_ADMIN,
    who: SELLERS_OWN, extension: true, body: { shop_id: i({ min: 1 }), page: i({ min: 1 }), per_page: i({ min: 1, max: 100 }) },
    // {shop_id}: that shop's rows (one per currency); otherwise every shop the caller reads, page by page.
    hll: { anyOf: [list(BALANCE), page(BALANCE)] },
  },
  {
    method: 'POST', path: LEDGER_PATHS.ledger, summary: 'The ledger\'s postings, newest first (paginated; amounts signed, in minor units); a seller reads their shops\' pending, available, paid and commission postings', roles: SELLER_ADMIN,
    who: SELLERS_OWN, extension: true, body: { page: i({ min: 1 }), per_page: i({ min: 1, max: 100 }), shop_id: i({ min: 1 }), order_id: i({ min: 1 }) },
    hll: page(shaped({ id: int, entry_id: int, account: str, currency: str, amount: int, kind: str, created_at: str })),
  },
  {
    method: 'GET', path: LEDGER_PATHS.statement, summary: 'A shop\'s monthly statement as CSV (?shop_id=&month=YYYY-MM): opening balance, each sale, commission, refund, fee and payout, closing balance',
    roles: SELLER_ADMIN, who: SELLERS_OWN, extension: true, answers: 'file', types: CSV, fails: { 404: 'No such shop' },
  },
  {
    method: 'POST', path: LEDGER_PATHS.refund, summary: 'Refund an order, whole or some of its lines (never more than was paid); answers the refund\'s id in detail', roles: ['admin'],
    access: REFUNDS_TOKEN, who: `an admin holding '${REFUNDS_TOKEN}'`, extension: true,
    body: { order_id: i({ required: true, min: 1 }), lines: j(), reason: s({ required: true, max: 255 }) },
    detail: MADE, fails: { 404: 'No such order', 409: 'The order is already refunded in full' },
  },
  {
    method: 'POST', path: LEDGER_PATHS.payout, summary: 'Pay a shop out its whole available balance in a currency, less any debt; answers the payout\'s id in detail', roles: ['admin'],
    access: PAYOUTS_TOKEN, who: `an admin holding '${PAYOUTS_TOKEN}'`, extension: true,
    body: { shop_id: i({ required: true, min: 1 }), currency: s({ required: true, max: 8 }) },
    detail: MADE, fails: { 404: 'No such shop' },
  },
  {
    method: 'POST', path: LEDGER_PATHS.payoutStatus, summary: 'Settle a payout: paid, or failed (the money goes back to available)', roles: ['admin'],
    access: PAYOUTS_TOKEN, who: `an admin holding '${PAYOUTS_TOKEN}'`, extension: true,
    body: { id: i({ required: true, min: 1 }), state: s({ required: true, oneOf: ['paid', 'failed'] }), reference: s({ max: 255 }) },
    detail: PAYOUT, fails: { 404: 'No such payout', 409: 'The payout is already settled' },
  },
  {
    method: 'POST', path: LEDGER_PATHS.payouts, summary: 'The payouts, newest first (paginated)', roles: ['admin'],
    access: PAYOUTS_TOKEN, who: `an admin holding '${PAYOUTS_TOKEN}'`, extension: true,
    body: { page: i({ min: 1 }), per_page: i({ min: 1, max: 100 }), shop_id: i({ min: 1 }), state: s({ oneOf: PAYOUT_STATES }) },
    hll: page(PAYOUT),
  },
  {
    method: 'POST', path: LEDGER_PATHS.batch, summary: 'A bank-transfer batch of the chosen payouts, as CSV', roles: ['admin'],
    access: PAYOUTS_TOKEN, who: `an admin holding '${PAYOUTS_TOKEN}'`, extension: true, answers: 'file', types: CSV,
    body: { ids: j({ required: true }) },
  },
  {
    method: 'POST', path: LEDGER_PATHS.commissions, summary: 'Commissions earned (net of refunds) per month, category, shop and currency, in minor units', roles: ['admin'],
    access: PAYOUTS_TOKEN, who: `an admin holding '${PAYOUTS_TOKEN}'`, extension: true,
    body: { from: s({ type: 'date' }), to: s({ type: 'date' }) },
    hll: list(shaped({ month: str, currency: str, amount: int })),
  },
];
