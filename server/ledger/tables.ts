/**
 * The ledger's tables (issue 28), kept by the server beside the contract's entities (db/serverTables.ts). Amounts
 * are integers in minor units (bigint). Entries and postings are never updated nor deleted: a
 * correction is a new entry.
 */
import type { ColumnDataType } from 'kysely';

interface LedgerTable {
  name: string;
  columns: Record<string, ColumnDataType>;
  indexes: string[][];
  unique?: string[][];
}

export const LEDGER_TABLES: LedgerTable[] = [
  {
    // One journal entry per event; event_key makes posting the same event twice post once.
    name: 'ledger_entries',
    columns: {
      kind: 'varchar(24)', event_key: 'varchar(128)', shop_id: 'integer', order_id: 'integer', currency: 'varchar(8)',
      memo: 'varchar(255)', created_by: 'integer', created_at: 'varchar(32)',
    },
    indexes: [['shop_id', 'created_at'], ['order_id']],
    unique: [['event_key']],
  },
  {
    // The lines of the entries: each entry's amounts sum to zero.
    name: 'ledger_postings',
    columns: {
      entry_id: 'integer', account: 'varchar(24)', shop_id: 'integer', order_id: 'integer', currency: 'varchar(8)',
      amount: 'bigint', kind: 'varchar(24)', created_at: 'varchar(32)',
    },
    indexes: [['entry_id'], ['shop_id', 'id'], ['order_id', 'id'], ['shop_id', 'currency', 'created_at'], ['account', 'created_at']],
  },
  {
    // Maintained totals per account, shop (0: the marketplace's own) and currency, written with the postings.
    name: 'ledger_balances',
    columns: { account: 'varchar(24)', shop_id: 'integer', currency: 'varchar(8)', amount: 'bigint' },
    indexes: [['shop_id']],
    unique: [['account', 'shop_id', 'currency']],
  },
  {
    // What each paid order earned, line by line with the commission rate frozen, and its way to available.
    name: 'order_earnings',
    columns: {
      order_id: 'integer', shop_id: 'integer', currency: 'varchar(8)', gross: 'bigint', commission: 'bigint', seller: 'bigint',
      delivery_fee: 'bigint', lines: 'text', paid_at: 'varchar(32)', delivered_at: 'varchar(32)', release_at: 'varchar(32)',
      released_at: 'varchar(32)', closed_at: 'varchar(32)', refunded: 'bigint', refunded_commission: 'bigint',
      refunded_seller: 'bigint', fee_refunded: 'integer',
    },
    // commission: the dashboard's Commissions card counts the sales that earned one from this index alone.
    indexes: [['release_at'], ['shop_id'], ['commission']],
    unique: [['order_id']],
  },
  {
    // Each month's fee pass through the shops (payouts.ts): the shops up to until_id, walked in id
    // order, charged up to through_id; done_at once walked.
    name: 'fee_passes',
    columns: { month: 'varchar(7)', through_id: 'integer', until_id: 'integer', done_at: 'varchar(32)', updated_at: 'varchar(32)' },
    indexes: [],
    unique: [['month']],
  },
  {
    name: 'refunds',
    columns: {
      order_id: 'integer', shop_id: 'integer', currency: 'varchar(8)', amount: 'bigint', commission: 'bigint', seller: 'bigint',
      lines: 'text', reason: 'varchar(255)', entry_id: 'integer', created_by: 'integer', created_at: 'varchar(32)',
    },
    indexes: [['order_id']],
  },
];
