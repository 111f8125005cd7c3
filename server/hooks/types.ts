/**
 * Entity hooks: the rules that belong to one entity rather than to all. A file
 * `server/hooks/<entity name>.ts` exporting `hooks` is picked up by the generic routes for that
 * entity; everything else (defaults, ownership, unique fields, links) is read from the contract.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EntityContract } from '../../contract';
import type { Context } from '../context';
import type { Caller } from '../auth';
import type { DB, Row } from '../db';
import type { Scope } from '../guard';
import type { FileStoreOptions } from '../storage';

export interface HookContext {
  /** The database, inside the save's transaction. */
  db: DB;
  entity: EntityContract;
  caller: Caller | null;
  scope: Scope;
  /** The HTTP exchange of a save (the client's address, its cookies, headers to answer with). */
  request?: FastifyRequest;
  reply?: FastifyReply;
  /** The server's settings (an entity's own, such as how long an order holds its stock). */
  config: Context['config'];
  /** The time, in ms (tests move it instead of waiting). */
  clock: () => number;
}

/** What a periodic sweep of an entity's records is given. */
export interface SweepContext {
  db: DB;
  /** The time it sweeps at, in ms. */
  at: number;
  /** True once the process is stopping: a sweep that works in steps stops between two. */
  stopping?: () => boolean;
  /**
   * Where a record the sweep could not change is reported (the scheduler's error log): the sweep
   * goes on with the others, and the next run tries it again (server/sweeps.ts `sweepEach`).
   */
  report: (error: unknown) => void;
}

/** What an entity's demo hooks are given, in demo mode (server/seed.ts). */
export interface DemoHookContext {
  /** The database, in the seeding's transaction when there is one. */
  db: DB;
  /** The time the demo data is made at, in ms. */
  now: number;
  /** Where uploaded files go; absent, demo files are not written (a test's server). */
  files?: FileStoreOptions;
}

export interface EntityHooks {
  /**
   * A caller without a session who proves otherwise that a record is theirs (a visitor's chat
   * cookie) may change it: the scope to change it in, or undefined to apply the contract's rule.
   */
  visitorScope?(db: DB, request: FastifyRequest, id: number): Promise<Scope | undefined>;
  /** A create that names an existing record adds to it instead (categories by name, SPEC §2.15). */
  findExisting?(ctx: HookContext, body: Row): Promise<Row | undefined>;
  /** Checks and shapes the values of a save or status call before they are written. */
  beforeWrite?(ctx: HookContext, values: Row, before: Row | undefined, body: Row): Row | Promise<Row>;
  /**
   * Writes related rows after a save or a status call, in the same transaction (a category's
   * subcategory); `body` is the save's payload, or the status call's status fields.
   */
  afterWrite?(ctx: HookContext, row: Row, body: Row): Promise<void>;
  /**
   * Work on the entity's records that is due by a time (an unpaid order's hold ending), run every
   * minute by every API process (never two runs at once in one process): it must be safe when several
   * processes sweep at once. Answers how many records it changed.
   */
  sweep?(ctx: SweepContext): Promise<number>;
  /**
   * Writes one of the entity's demo rows through the entity's own rules (a user's password hashed,
   * their accesses granted), the row in the shape the entity's demo module gives; answers the row written.
   */
  insertDemo?(ctx: DemoHookContext, row: Row): Promise<Row>;
  /**
   * Work on the demo rows just written, once every entity's demo rows are in: files the rows name
   * (products' pictures), another module's story of them (the orders' money in the ledger).
   */
  afterDemo?(ctx: DemoHookContext, rows: readonly Row[]): Promise<void>;
}
