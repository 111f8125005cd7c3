/**
 * The database: SQLite through better-sqlite3 by default, PostgreSQL when DATABASE_URL is set.
 * Tables are derived from the contract's field lists, so declaring an entity declares its table;
 * `migrate` creates what is missing and adds new columns, and never drops anything.
 */
export { openDatabase, privateFile, type Database, type DB, type Row } from './connection';
export { GenerationCache, generationOf, oneReading, outsideRequest, sharedReads } from './generation';
export { dialectOf, likeInsensitive, now, syncIdSequence } from './queries';
export { exclusively, migrate, registerDerivedTable, tableSpecs, textSearchColumns, type DerivedTable } from './schema';
export { ftsTable, PAGE_BUCKET, PAGE_INDEX, SELLER_COLUMN } from './triggers';
