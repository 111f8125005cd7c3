/**
 * The primary of several API processes (WORKERS > 1, node:cluster): starts them, replaces one that
 * dies, gathers their metrics, and
 * - on SIGHUP restarts them one at a time (a new process listening before an old one is asked to
 *   stop, so the port always has one), e.g. after a deploy of new code;
 * - on SIGTERM or SIGINT asks each to stop cleanly and exits once they all have.
 */
import cluster, { type Worker } from 'node:cluster';
import { once } from 'node:events';
import { gatherClusterMetrics } from './metrics';

export function superviseWorkers(count: number, started: () => void): void {
  gatherClusterMetrics();
  let stopping = false;
  let listening = 0;
  /** Workers asked to stop on purpose (a rolling restart): not replaced when they end. */
  const retiring = new Set<number>();
  const fork = () => {
    const worker = cluster.fork();
    worker.once('listening', () => {
      if (++listening === count) started();
    });
    return worker;
  };
  const alive = () => Object.values(cluster.workers ?? {}).filter((w): w is Worker => Boolean(w) && !w!.isDead());
  for (let i = 0; i < count; i++) fork();
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (!alive().length) process.exit(0);
      return;
    }
    if (retiring.delete(worker.id)) return;
    console.error(`API process ${worker.process.pid} ended (${signal ?? code}); starting another`);
    fork();
  });

  let restarting = false;
  const rollingRestart = async () => {
    if (restarting || stopping) return;
    restarting = true;
    for (const old of alive()) {
      const fresh = cluster.fork();
      // Not replaced if it fails to start: the old processes then keep serving.
      retiring.add(fresh.id);
      const listening = await Promise.race([once(fresh, 'listening').then(() => true), once(fresh, 'exit').then(() => false)]);
      if (!listening) {
        console.error('A new API process failed to start: the rolling restart stopped, the running processes keep serving');
        restarting = false;
        return;
      }
      retiring.delete(fresh.id);
      retiring.add(old.id);
      old.process.kill('SIGTERM');
      await once(old, 'exit');
    }
    console.log(`API processes restarted: ${alive().map((w) => w.process.pid).join(', ')}`);
    restarting = false;
  };
  const stop = () => {
    if (stopping) return;
    stopping = true;
    const workers = alive();
    if (!workers.length) process.exit(0);
    for (const worker of workers) worker.process.kill('SIGTERM');
  };
  process.on('SIGHUP', () => void rollingRestart());
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
