/**
 * PostgreSQL: the page reads (shaped.ts: a list page's ids, its rows, their linked records) prepared
 * once per connection and then run by name. Sent unnamed, every statement is parsed, analysed and
 * planned anew each time it runs, and for these small reads that is a good part of their cost. A
 * named one is parsed once; PostgreSQL plans it for its values the first five times, then keeps one
 * plan for any values when that plan is estimated no dearer (its `plan_cache_mode`, left as it is).
 *
 * Only statements whose best plan does not depend on their values are run by name: a page read
 * finds rows by id, or by owner and id, whatever the values. A search or a filter is not: a plan
 * kept for any value is estimated with default guesses, and PostgreSQL's rule then kept, for a short
 * search value, a plan ten times slower than the one its values get (25 → 270 ms at a million
 * rows; docs/benchmarks.md). Those stay unnamed, planned for their values each time.
 *
 * Each connection keeps at most PREPARED.perConnection named statements (others are sent unnamed),
 * and a statement with more than PREPARED.maxParameters values is always sent unnamed.
 *
 * A column added to a table while a statement reading all of its columns is prepared (another
 * process migrating during a rolling upgrade) makes PostgreSQL refuse that statement ("cached plan
 * must not change result type"): it is run again unnamed when outside a transaction (inside one,
 * PostgreSQL has ended the transaction, which fails), the connection names nothing more, and it is
 * closed when handed back (the pool opens a fresh one).
 */
import crypto from 'node:crypto';
import type pg from 'pg';
import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';

export const PREPARED = {
  /** Named statements one connection keeps at most; beyond them, statements are sent unnamed. */
  perConnection: 200,
  /** A statement with more values than this is sent unnamed. */
  maxParameters: 100,
  /** Statement texts remembered as run by name (the most recent). */
  remembered: 1000,
};

/** The texts of the statements run by name, each with its name (a digest of the text). */
const byName = new Map<string, string>();

/**
 * Marks a statement's text to be run by name from now on: only a statement whose best plan does not
 * depend on its values (see above).
 */
export function runByName(text: string): void {
  if (byName.has(text)) return;
  if (byName.size >= PREPARED.remembered) byName.delete(byName.keys().next().value!);
  byName.set(text, `s${crypto.createHash('sha1').update(text).digest('base64url')}`);
}

/** PostgreSQL's refusal of a prepared statement whose columns changed under it (SQLSTATE 0A000). */
const isStaleResult = (error: unknown) =>
  (error as { code?: string }).code === '0A000' && /cached plan must not change result type/.test(String((error as Error).message));

/** One pooled connection, running the statements it may by name. */
class PreparingClient implements PostgresPoolClient {
  private readonly prepared = new Set<string>();
  private inTransaction = false;
  /** Set once PostgreSQL refused a prepared statement: the connection names nothing more and is closed when handed back. */
  private stale = false;

  constructor(private readonly client: pg.PoolClient) {}

  query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  query<R>(sql: string | PostgresCursor<R>, parameters?: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    if (typeof sql !== 'string') return this.client.query(sql as never) as PostgresCursor<R>;
    // Kysely hands over a fresh array of the values: sent as it is.
    return this.run(sql, (parameters ?? []) as unknown[]) as unknown as Promise<PostgresQueryResult<R>>;
  }

  private async run(sql: string, values: unknown[]): Promise<pg.QueryResult> {
    if (/^(begin|start transaction)\b/i.test(sql)) this.inTransaction = true;
    else if (/^(commit|rollback)$/i.test(sql)) this.inTransaction = false;
    const name = this.nameFor(sql, values.length);
    if (name === undefined) return this.client.query(sql, values);
    try {
      return await this.client.query({ name, text: sql, values });
    } catch (error) {
      if (!isStaleResult(error)) throw error;
      this.stale = true;
      if (this.inTransaction) throw error;
      return this.client.query(sql, values);
    }
  }

  /** The name to run `sql` by, or undefined to send it unnamed. */
  private nameFor(sql: string, values: number): string | undefined {
    const name = byName.get(sql);
    if (name === undefined || this.stale || values > PREPARED.maxParameters) return undefined;
    if (this.prepared.has(name)) return name;
    if (this.prepared.size >= PREPARED.perConnection) return undefined;
    this.prepared.add(name);
    return name;
  }

  release(): void {
    // A stale connection is closed: its prepared statements go with it.
    this.client.release(this.stale || undefined);
  }
}

/** The pool Kysely is given: the same connections, each running the statements marked by name. */
export function preparingPool(pool: pg.Pool): PostgresPool {
  const wrapped = new WeakMap<pg.PoolClient, PreparingClient>();
  return {
    async connect() {
      const client = await pool.connect();
      let preparing = wrapped.get(client);
      if (!preparing) wrapped.set(client, (preparing = new PreparingClient(client)));
      return preparing;
    },
    end: () => pool.end(),
  };
}
