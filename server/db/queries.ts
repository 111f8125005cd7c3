/** Helpers of the queries written for both databases. */
import { PostgresAdapter, sql } from 'kysely';
import type { Database, DB } from './connection';

/** Quotes an identifier for DDL written by hand (names come from the contract, never from clients). */
export const id = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * PostgreSQL: after rows were written with explicit ids (reference data), the id sequence moves past
 * them so the next insert does not collide. SQLite needs nothing.
 */
export async function syncIdSequence(db: DB, table: string): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql
    .raw(`select setval(pg_get_serial_sequence('${id(table).replace(/'/g, "''")}', 'id'), coalesce((select max(id) from ${id(table)}), 0) + 1, false)`)
    .execute(db);
}

/**
 * A text LIKE that is case-insensitive on both databases. `asText` casts a non-text column (a
 * number) first; PostgreSQL has no lower() of a number. Text columns are compared as lower(column),
 * the expression their trigram index is built on.
 */
export function likeInsensitive(column: string, pattern: string, asText = false) {
  const value = asText ? sql`cast(${sql.ref(column)} as text)` : sql.ref(column);
  return sql<boolean>`lower(${value}) like lower(${pattern}) escape '\\'`;
}

/** Which database a query builder speaks to. */
export const dialectOf = (db: DB): Database['dialect'] => (db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite');

export const now = () => new Date().toISOString();
