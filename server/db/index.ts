/**
 * The database: SQLite through better-sqlite3 by default, PostgreSQL when DATABASE_URL is set.
 * Tables are derived from the contract's field lists, so declaring an entity declares its table;
 * `migrate` creates what is missing and adds new columns, and never drops anything.
 *
 * By job: connection.ts opens either database with its settings; generation.ts tells when the data
 * may have changed (what answers are kept under); schema.ts makes the tables (serverTables.ts: the
 * server's own), triggers.ts what keeps derived data in step; queries.ts helps queries on both; shaped.ts
 * compiles the hottest reads once per shape, and prepared.ts runs them by name on PostgreSQL.
 */
export { openDatabase, privateFile, type Database, type DB, type Row } from './connection';
export { ASKED_PER_KEPT, GenerationCache, generationOf, oneReading, outsideRequest, sharedReads } from './generation';
export { dialectOf, likeInsensitive, now, syncIdSequence } from './queries';
export { bound, readPlanned, readShaped } from './shaped';
export { exclusively, migrate, registerDerivedTable, tableSpecs, textSearchColumns, type DerivedTable } from './schema';
export { ftsTable, keptSumsTriggers, PAGE_BUCKET, PAGE_INDEX, SELLER_COLUMN, type KeptSums } from './triggers';
