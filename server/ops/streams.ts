/**
 * The event streams a process holds open (server-sent events), counted for the metrics and ended
 * with a reconnection hint when the process stops: the browser's EventSource waits that long, then
 * reconnects, through the balancer, to a process that is still running.
 */
import type { ServerResponse } from 'node:http';

const open = new Set<ServerResponse>();

/** Counts a stream until it closes. */
export function trackStream(res: ServerResponse): void {
  open.add(res);
  res.once('close', () => open.delete(res));
}

export const openStreams = () => open.size;

/**
 * Ends every open stream, telling its client to reconnect after 1-3 s (spread, so a stopping
 * process's clients do not all come back in the same instant).
 */
export function endStreams(): void {
  for (const res of open) {
    res.end(`retry: ${1000 + Math.floor(Math.random() * 2000)}\n\n`);
    open.delete(res);
  }
}
