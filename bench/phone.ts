/**
 * What opening a page costs a phone's main thread, observed rather than simulated: the sign-in page,
 * the dashboard and Products opened afresh (empty caches) at a phone's width (412 px) in Debian's
 * Chromium with its CPU slowed 4× (Lighthouse's mobile factor), signed in as the demo admin where the
 * page needs it, on the demo data. For each page, medians of BENCH_ROUNDS (default 5) fresh contexts:
 *
 * - the JavaScript files and kilobytes fetched (over the wire) while the page opened;
 * - the long tasks (over 50 ms) the page itself observed, the longest, and their total blocking time
 *   (the part of each over 50 ms, as Lighthouse counts it, but over the whole BENCH_WAIT);
 * - React's commits, and the components drawn in them (read through React's developer-tools hook:
 *   a component whose render ran for the commit, not one React kept from the commit before);
 * - the browser's CPU time over the same window (user + system, every Chromium process, from /proc):
 *   the figure a busy machine moves least, where the long tasks are timed by the wall clock. Read it
 *   with BENCH_SLOWDOWN=1: Chromium's CPU slowdown spins in the renderer for the time it takes away.
 *
 * Lighthouse (`npm run bench:lighthouse`) simulates a phone from one fast run, and its figures moved by a
 * third from one run to the next on a shared machine; these move less, and say where the time went.
 *
 *   npm run build && npm run bench:phone
 *   STATIC_DIR=/another/build BENCH_PAGES=products npm run bench:phone   (compare builds; some pages only)
 *   BENCH_COMMITS=1 npm run bench:phone   (every commit and long task of the last round: when, how many drawn, and where)
 *   BENCH_COMMITS=names npm run bench:phone   (and, for a commit of 20 or more, the components drawn most, by name:
 *                                             build with `vite build --minify false` to read them)
 *   BENCH_SLOWDOWN=1 npm run bench:phone   (the CPU at full speed, for the browser CPU column)
 *
 * Prints a table; writes nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { startProcess } from '../server/dev/process';
import { cpuSeconds } from './support';
import { DEMO_ACCOUNTS } from '../resources/users/demo';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const WAIT = Number(process.env.BENCH_WAIT ?? 10_000);
const SLOWDOWN = Number(process.env.BENCH_SLOWDOWN ?? 4);
const ONLY = process.env.BENCH_PAGES ? new RegExp(process.env.BENCH_PAGES, 'i') : undefined;
const PAGES = [
  { name: 'Sign in', path: '/login', signedIn: false },
  { name: 'Dashboard', path: '/', signedIn: true },
  { name: 'Products', path: '/products', signedIn: true },
] as const;

interface Commit { at: number; drawn: number; where: string[]; names: Record<string, number> }
interface LongTask { at: number; duration: number }
interface Round { files: number; kB: number; longTasks: number; longest: number; blocking: number; commits: Commit[]; long: LongTask[]; cpuMs: number }

/** The Chromium this process started (Playwright's), whose processes are all under it. */
function browserPid(): number {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === process.pid && fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('chromium')) return Number(entry);
    } catch {
      // the process ended meanwhile
    }
  }
  throw new Error('The browser process was not found');
}

/** Runs in the page before its scripts: records long tasks and React's commits. */
function observe() {
  const w = window as unknown as { __long: LongTask[]; __commits: Commit[]; __REACT_DEVTOOLS_GLOBAL_HOOK__: unknown };
  w.__long = [];
  w.__commits = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) w.__long.push({ at: Math.round(e.startTime), duration: Math.round(e.duration) });
  }).observe({ type: 'longtask', buffered: true });
  // Function, class, forward-ref and memo components (React's fiber tags).
  const components = new Set([0, 1, 11, 14, 15]);
  interface Fiber { tag: number; flags: number; type: any; child: Fiber | null; sibling: Fiber | null }
  // A fiber React kept from the commit before is the same object as then; one drawn anew is not.
  let before = new WeakSet<Fiber>();
  w.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    renderers: new Map(),
    inject() {
      return 1;
    },
    checkDCE() {},
    onScheduleFiberRoot() {},
    onCommitFiberUnmount() {},
    onPostCommitFiberRoot() {},
    onCommitFiberRoot(_id: number, root: { current: Fiber }) {
      const now = new WeakSet<Fiber>();
      const where: string[] = [];
      const names: Record<string, number> = {};
      let drawn = 0;
      const stack: [Fiber, boolean][] = [[root.current, false]];
      while (stack.length) {
        const [fiber, parentDrawn] = stack.pop()!;
        now.add(fiber);
        // PerformedWork (flag 1): the component's render ran.
        const ran = components.has(fiber.tag) && (fiber.flags & 1) === 1 && !before.has(fiber);
        if (ran) {
          drawn++;
          const type = fiber.type?.type ?? fiber.type?.render ?? fiber.type;
          const name: string = fiber.type?.displayName ?? type?.displayName ?? type?.name ?? '?';
          names[name] = (names[name] ?? 0) + 1;
          if (!parentDrawn && where.length < 4) where.push(name);
        }
        if (fiber.sibling) stack.push([fiber.sibling, parentDrawn]);
        if (fiber.child) stack.push([fiber.child, parentDrawn || ran]);
      }
      before = now;
      w.__commits.push({ at: Math.round(performance.now()), drawn, where, names });
    },
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

async function main() {
  const dist = process.env.STATIC_DIR ?? 'dist';
  if (!fs.existsSync(path.join(dist, 'index.html'))) throw new Error('Build the console first (npm run build)');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'marketplace-phone-'));
  const server = await startProcess({ DATA_DIR: dataDir, STATIC_DIR: dist, LOG_LEVEL: 'silent' });
  const origin = server.url.replace(/\/api$/, '');
  const { email, password } = DEMO_ACCOUNTS.admin;
  const signIn = await server.post<{ detail: { token: string; id: number } }>('/user/terminal', { credential: email, password, source: 'inbuilt', actionType: 'login' });
  const token = `${signIn.body.detail.token}.${signIn.body.detail.id}`;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const browserProcess = browserPid();
  const rows: string[] = [];
  try {
    for (const spec of PAGES) {
      if (ONLY && !ONLY.test(spec.name)) continue;
      const rounds: Round[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true });
        const page = await context.newPage();
        await page.goto(`${origin}/config.json`);
        await page.evaluate((value) => (value ? localStorage.setItem('token_x', value) : localStorage.clear()), spec.signedIn ? token : '');
        await page.addInitScript(observe);
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(String(e)));
        const cdp = await context.newCDPSession(page);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: SLOWDOWN });
        const cpuBefore = cpuSeconds([browserProcess]);
        await page.goto(origin + spec.path);
        // The observation window itself (BENCH_WAIT), not a wait for something to happen: the long tasks and
        // commits are counted over the same fixed time on every build, as Lighthouse counts over its own run.
        await page.waitForTimeout(WAIT);
        const cpuMs = (cpuSeconds([browserProcess]) - cpuBefore) * 1000;
        if (errors.length) throw new Error(`${spec.path}: ${errors.join('; ')}`);
        const seen = await page.evaluate(() => {
          const w = window as unknown as { __long: LongTask[]; __commits: Commit[] };
          const js = performance.getEntriesByType('resource').filter((e) => new URL(e.name).pathname.endsWith('.js')) as PerformanceResourceTiming[];
          return { long: w.__long, commits: w.__commits, files: js.length, bytes: js.reduce((sum, e) => sum + e.encodedBodySize, 0) };
        });
        rounds.push({
          files: seen.files,
          kB: seen.bytes / 1024,
          longTasks: seen.long.length,
          longest: Math.max(0, ...seen.long.map((t) => t.duration)),
          blocking: seen.long.reduce((sum, t) => sum + Math.max(0, t.duration - 50), 0),
          commits: seen.commits,
          long: seen.long,
          cpuMs,
        });
        await context.close();
      }
      const m = (f: (r: Round) => number) => Math.round(median(rounds.map(f)));
      rows.push(
        `| ${spec.name} | ${m((r) => r.files)} · ${m((r) => r.kB)} kB | ${m((r) => r.longTasks)} | ${m((r) => r.longest)} ms | ${m((r) => r.blocking)} ms | ${m((r) => r.cpuMs)} ms (${rounds.map((r) => Math.round(r.cpuMs)).join(', ')}) | ${m((r) => r.commits.length)} | ${m((r) => r.commits.reduce((s, c) => s + c.drawn, 0))} |`,
      );
      console.log(rows.at(-1));
      if (process.env.BENCH_COMMITS) {
        const last = rounds.at(-1)!;
        const lines = [
          ...last.commits.map((c) => {
            const most = Object.entries(c.names).sort((a, b) => b[1] - a[1]).slice(0, 16);
            const byName = process.env.BENCH_COMMITS === 'names' && c.drawn >= 20 ? `\n      ${most.map(([name, n]) => `${name} ${n}`).join(', ')}` : '';
            return { at: c.at, text: `${c.at} ms: ${c.drawn} drawn, from ${c.where.join(', ') || '–'}${byName}` };
          }),
          ...last.long.map((t) => ({ at: t.at, text: `${t.at}–${t.at + t.duration} ms: a long task of ${t.duration} ms` })),
        ].sort((a, b) => a.at - b.at);
        for (const line of lines) console.log(`    ${line.text}`);
      }
    }
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(
    [
      '',
      `Phone (${SLOWDOWN}× slower CPU, 412 px), medians of ${ROUNDS}, ${WAIT / 1000} s after opening; ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}`,
      '',
      '| page | JavaScript files · kB | long tasks | longest | blocking time | browser CPU (each round) | React commits | components drawn |',
      '|---|---:|---:|---:|---:|---:|---:|---:|',
      ...rows,
    ].join('\n'),
  );
}

await main();
