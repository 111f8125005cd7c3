/**
 * The real server as a separate process (`server/main.ts`, or its JavaScript build as `npm run serve` starts it), for tests
 * that kill it or run several of them on one database.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Resolves with the exit signal or code once the process has ended. */
  exited: Promise<string>;
  /** Answers are read loosely, as JSON (as the test harness reads them). */
  post<T = any>(path: string, body: unknown, token?: string): Promise<{ http: number; body: T }>;
  login(email: string, password: string): Promise<string>;
  /** SIGKILL: no shutdown, no flush; resolves once the process is gone. */
  kill(): Promise<string>;
  stop(): Promise<string>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts `server/main.ts` with this environment and resolves once it listens; `compiled`: the
 * JavaScript build (build/server/main.js, as `npm run serve` runs it) with plain node.
 */
export async function startProcess(env: Record<string, string>, opts: { compiled?: boolean } = {}): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, opts.compiled ? ['build/server/main.js'] : ['--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, NODE_ENV: 'development', DEMO: '1', HOST: '127.0.0.1', PORT: String(port), STATIC_DIR: '/nonexistent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<string>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? String(code))));
  let output = '';
  await new Promise<void>((resolve, reject) => {
    // Only the start-up output is kept (a long run logs a line per request).
    let started = false;
    const onData = (chunk: Buffer) => {
      if (started) return;
      output += chunk.toString();
      if (output.includes('Marketplace console at')) {
        started = true;
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
    void exited.then((how) => reject(new Error(`server exited (${how}) before listening:\n${output}`)));
  });
  const url = `http://127.0.0.1:${port}/api`;
  const post: ServerProcess['post'] = async (p, body, token) => {
    const res = await fetch(url + p, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    return { http: res.status, body: await res.json() };
  };
  const login = async (email: string, password: string) => {
    const res = await post('/user/terminal', { credential: email, password, source: 'inbuilt', actionType: 'login' });
    if (!res.body.status) throw new Error(`login failed: ${res.body.query}`);
    return res.body.detail.token as string;
  };
  const signal = (name: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(name);
    return exited;
  };
  return { url, child, exited, post, login, kill: () => signal('SIGKILL'), stop: () => signal('SIGTERM') };
}
