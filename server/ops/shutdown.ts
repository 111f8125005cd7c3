/**
 * A clean stop (SIGTERM, as a rolling deploy or an orchestrator sends it; SIGINT too):
 * 1. /api/ready answers 503 and every answer from now on carries `Connection: close`; for the
 *    delay (SHUTDOWN_DELAY_SECONDS, none by default) the process still takes new connections and
 *    answers them, so that a balancer probing /api/ready stops sending before it stops listening;
 * 2. the process stops accepting connections (under WORKERS the primary gives new ones to the
 *    other processes), and the event streams end with a reconnection hint;
 * 3. requests in flight are finished; a keep-alive connection is closed after its next answer, or
 *    when it has been idle for the keep-alive timeout (never in the instant a client may be
 *    sending on it); after the grace period whatever is left is cut;
 * 4. the app's own closing (timers, the chat feed), then `cleanup` (a mail being sent, in what is
 *    left of the grace period; the database), the logs written out (for at most LOG_FLUSH_MS when their reader has stalled), and the process exits.
 * Signals that come while stopping change nothing (Ctrl-C reaches every process of WORKERS, and the
 * primary then asks them too); the grace period bounds the stop.
 */
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { flushLogs } from '../logging';
import { endStreams } from './streams';

/** How long a stopping process waits for a log output that takes nothing (its reader stalled). */
const LOG_FLUSH_MS = 2000;

export interface Stopper {
  /** True once a stop has begun. */
  stopping(): boolean;
  /**
   * Stops on SIGTERM and SIGINT, after `delaySeconds` of answering while not ready: the app, then
   * `cleanup` (told the ms left of the grace period), then the process.
   */
  onSignals(app: FastifyInstance, times: { graceSeconds: number; delaySeconds: number }, cleanup: (leftMs: number) => Promise<void>): void;
}

export function stopper(): Stopper {
  let stopping = false;
  return {
    stopping: () => stopping,
    onSignals(app, { graceSeconds, delaySeconds }, cleanup) {
      const stop = async (signal: string) => {
        if (stopping) return;
        stopping = true;
        if (delaySeconds > 0) {
          app.log.info({ signal, delaySeconds }, 'stopping: not ready, still answering while the balancer sees it');
          await new Promise((resolve) => setTimeout(resolve, delaySeconds * 1000));
        }
        app.log.info({ signal, graceSeconds }, 'stopping: finishing the requests in flight');
        const server = app.server;
        const graceEnds = Date.now() + graceSeconds * 1000;
        const grace = setTimeout(() => {
          app.log.warn('grace period over: closing the connections left');
          server.closeAllConnections();
        }, graceSeconds * 1000);
        // net.Server's close: stops accepting and calls back once every connection has ended
        // (http.Server's would also cut idle keep-alive connections a client may be sending on).
        const drained = new Promise<void>((resolve) => net.Server.prototype.close.call(server, () => resolve()));
        endStreams();
        await drained;
        clearTimeout(grace);
        try {
          await app.close();
          await cleanup(Math.max(0, graceEnds - Date.now()));
          app.log.info('stopped');
        } catch (error) {
          app.log.error({ err: error }, 'stopping failed');
        }
        await flushLogs(app.log, LOG_FLUSH_MS);
        process.exit(0);
      };
      process.on('SIGTERM', () => void stop('SIGTERM'));
      process.on('SIGINT', () => void stop('SIGINT'));
    },
  };
}

/** While stopping, every answer closes its connection: clients go to another process for the next request. */
export function closeConnectionsWhileStopping(app: FastifyInstance, stopping: (() => boolean) | undefined): void {
  if (!stopping) return;
  app.addHook('onRequest', (_request, reply, done) => {
    if (stopping()) reply.header('Connection', 'close');
    done();
  });
}
