/**
 * Probes for the load balancer (unauthenticated, cheap, kept in strict mode):
 * - GET /api/health: the process is alive; reads nothing.
 * - GET /api/ready: the database answers within 2 s, every table and column the server declares is
 *   there (migrations done), DATA_DIR is a writable folder, the file storage is reachable (the
 *   local folder writable, or the bucket answering within 2 s), and the process is not stopping;
 *   503 with the reason otherwise.
 */
import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { envelope } from '../../contract';
import { tableSpecs, type DB } from '../db';
import type { AppContext } from '../context';
import { ok } from '../routes/common';

/** What the operations side of a running process tells the routes. */
export interface OpsContext {
  /** The database's connections (metrics). */
  connections?: () => { inUse: number; open: number };
  /** METRICS_TOKEN: /metrics is readable with it only (off without it). */
  metricsToken?: string;
  /** True once the process has been asked to stop (SIGTERM): /api/ready answers 503. */
  stopping?: () => boolean;
}

const DATABASE_WAIT_MS = 2000;

/** Databases found migrated: a migration never goes back, so they are not looked at again. */
const migrated = new WeakSet<DB>();

async function missingTables(ctx: AppContext): Promise<string | undefined> {
  if (migrated.has(ctx.db)) return undefined;
  const have = new Map((await ctx.db.introspection.getTables()).map((t) => [t.name, new Set(t.columns.map((c) => c.name))]));
  const missing = tableSpecs(ctx.registry).flatMap((table) => {
    const columns = have.get(table.name);
    if (!columns) return [table.name];
    return Object.keys(table.columns).filter((c) => !columns.has(c)).map((c) => `${table.name}.${c}`);
  });
  if (!missing.length) migrated.add(ctx.db);
  return missing.length ? `the database is not migrated (missing ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''})` : undefined;
}

async function storageProblem(dir: string | undefined): Promise<string | undefined> {
  if (!dir) return undefined;
  try {
    if (!(await fs.promises.stat(dir)).isDirectory()) return 'the file storage (DATA_DIR) is not a folder';
    await fs.promises.access(dir, fs.constants.W_OK);
    return undefined;
  } catch {
    return 'the file storage (DATA_DIR) is missing or not writable';
  }
}

/** Why this process should not be sent requests now, or undefined when it is ready. */
export async function notReady(ctx: AppContext): Promise<string | undefined> {
  if (ctx.ops?.stopping?.()) return 'the process is stopping';
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      sql`select 1`.execute(ctx.db),
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${DATABASE_WAIT_MS / 1000} s`)), DATABASE_WAIT_MS))),
    ]);
  } catch (error) {
    return `the database cannot be reached (${error instanceof Error ? error.message : String(error)})`;
  } finally {
    clearTimeout(timer);
  }
  return (await missingTables(ctx)) ?? (await storageProblem(ctx.config.dataDir)) ?? (await ctx.files.problem());
}

export async function healthRoutes(app: FastifyInstance, ctx: AppContext) {
  app.get('/health', async (_request, reply) => reply.header('Cache-Control', 'no-store').send(ok({ query: 'The server is running' })));
  app.get('/ready', async (_request, reply) => {
    const problem = await notReady(ctx);
    reply.header('Cache-Control', 'no-store');
    if (problem) return reply.code(503).send(envelope({ query: `Not ready: ${problem}` }));
    return ok({ query: 'Ready' });
  });
}
