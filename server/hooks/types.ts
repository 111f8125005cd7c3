/**
 * Entity hooks: the rules that belong to one entity rather than to all. A file
 * `server/hooks/<entity name>.ts` exporting `hooks` is picked up by the generic routes for that
 * entity; everything else (defaults, ownership, unique fields, links) is read from the contract.
 */
import type { EntityContract } from '../../contract';
import type { Caller } from '../auth';
import type { DB, Row } from '../db';
import type { Scope } from '../guard';

export interface HookContext {
  /** The database, inside the save's transaction. */
  db: DB;
  entity: EntityContract;
  caller: Caller | null;
  scope: Scope;
}

export interface EntityHooks {
  /** A create that names an existing record adds to it instead (categories by name, SPEC §2.15). */
  findExisting?(ctx: HookContext, body: Row): Promise<Row | undefined>;
  /** Checks and shapes the values of a save or status call before they are written. */
  beforeWrite?(ctx: HookContext, values: Row, before: Row | undefined, body: Row): Row | Promise<Row>;
  /** Writes related rows after a save, in the same transaction (a category's subcategory). */
  afterWrite?(ctx: HookContext, row: Row, body: Row): Promise<void>;
}
