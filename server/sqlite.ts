/**
 * The embedded database's driver. better-sqlite3 13 is built on Node-API, which holds on Node 24
 * (12's ObjectWrap build aborts there when the garbage collector finalizes a statement), but it
 * does not run on Node 20, the demo's oldest runtime, which keeps 12. Both have the same API.
 */
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

const require = createRequire(import.meta.url);
const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

/** The package the running Node takes: the Node-API build from Node 22 on. */
export const SQLITE_PACKAGE = NODE_MAJOR >= 22 ? 'better-sqlite3-napi' : 'better-sqlite3';

const SQLite = require(SQLITE_PACKAGE) as typeof BetterSqlite3;
export default SQLite;
