/**
 * The audit log: every write, status change, role or access change, blacklisting, sign-in, payout and refund, with
 * who, when, which entity and record, and the fields before and after. Written in the same
 * transaction as the change it records; secrets (password hashes) never enter it.
 */
import type { Caller } from './auth';
import { now, type DB, type Row } from './db';

/** The audit log's table: the `auditLogs` resource file declares it. */
const TABLE = 'auditLogs';
const NEVER = new Set(['password_hash', 'updated_at', 'created_at']);

export type AuditAction = 'create' | 'update' | 'status' | 'delete' | 'sign-in' | 'roles' | 'blacklist' | 'password' | 'second-factor' | 'payout' | 'refund';

export interface AuditEntry {
  caller: Caller | null;
  action: AuditAction;
  entity: string;
  recordId: number | null;
  before?: Row;
  after?: Row;
}

const clean = (row: Row | undefined): Row =>
  Object.fromEntries(Object.entries(row ?? {}).filter(([key, value]) => !NEVER.has(key) && value !== undefined));

/** The fields that differ: a create records every field after, a delete every field before. */
export function changes(before: Row | undefined, after: Row | undefined): { before: Row | null; after: Row | null } {
  if (!before) return { before: null, after: clean(after) };
  if (!after) return { before: clean(before), after: null };
  const was = clean(before);
  const is = clean(after);
  const keys = Object.keys(is).filter((key) => key !== 'id' && String(was[key] ?? '') !== String(is[key] ?? ''));
  return { before: Object.fromEntries(keys.map((k) => [k, was[k] ?? null])), after: Object.fromEntries(keys.map((k) => [k, is[k] ?? null])) };
}

export async function audit(db: DB, entry: AuditEntry): Promise<void> {
  const diff = changes(entry.before, entry.after);
  await db
    .insertInto(TABLE)
    .values({
      user_id: entry.caller?.id ?? null,
      user_name: entry.caller ? String(entry.caller.user.name ?? '') : null,
      action: entry.action,
      entity: entry.entity,
      record_id: entry.recordId,
      before: diff.before === null ? null : JSON.stringify(diff.before),
      after: diff.after === null ? null : JSON.stringify(diff.after),
      created_at: now(),
      updated_at: now(),
    })
    .execute();
}
