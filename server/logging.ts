/**
 * Structured logs (Fastify's pino): one line per request and per error, with the request id, and
 * never a secret: authorization headers, cookies, passwords and tokens are redacted, and query
 * strings (a reset link carries its token there) are cut from logged URLs.
 */
import crypto from 'node:crypto';
import { EventEmitter } from 'node:events';
import pino from 'pino';
import { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';

const REDACT = [
  'req.headers.authorization', 'req.headers.cookie', 'req.headers["x-cscapi-key"]', 'res.headers["set-cookie"]',
  '*.password', '*.current_password', '*.password_hash', '*.reset_token', '*.token', '*.authorization',
];

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** Logger settings for a level (LOG_LEVEL; 'info' by default), writing to `stream` (standard output by default). */
export function loggerOptions(level: LogLevel = 'info', stream?: pino.DestinationStream): FastifyServerOptions['logger'] {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: { paths: REDACT, censor: '[redacted]' },
    serializers: {
      req: (req: { method: string; url: string; ip?: string; id?: string }) => ({
        method: req.method,
        url: req.url.split('?')[0],
        remoteAddress: req.ip,
      }),
    },
  };
}

/**
 * Where the server's log lines go: standard output, written in the background. Lines written while
 * a write is under way go together in the next (a busy server makes one write for many lines, not
 * one each), at most 4 kB at a time and always whole lines, so several API processes sharing one
 * output never cut into each other's lines. What is still waiting is written when the process exits.
 */
export const logDestination = () => pino.destination({ dest: 1, sync: false, maxWrite: 4096 });

/**
 * Writes out the lines a logger still holds and ends its output, waiting at most `ms`. Its output
 * may take nothing (a log collector that stalled, or whose end of the pipe is gone): the lines not
 * written by then are dropped, so that the process can exit (pino's own last write at exit would
 * retry a broken pipe for ever).
 */
export async function flushLogs(log: unknown, ms: number): Promise<void> {
  type Output = EventEmitter & { end?(): void; destroy?(): void; destroyed?: boolean };
  const stream = (log as Record<symbol, unknown>)[pino.symbols.streamSym] as Output | undefined;
  if (!(stream instanceof EventEmitter) || typeof stream.end !== 'function' || stream.destroyed) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      resolve();
    }
    stream.once('close', done);
    stream.once('error', done);
    stream.end!();
  });
  if (!stream.destroyed) stream.destroy?.();
}

/**
 * Request ids unique across processes (several API processes may log to one place): 16 random hex
 * digits, cut from random bytes drawn 1,024 ids at a time, so a request costs no random draw of its
 * own. Random, not counted: the ids are sent to every caller (X-Request-Id), and a count would tell a
 * stranger how busy the server is.
 */
export function requestIds(): () => string {
  let pool = Buffer.alloc(0);
  let at = 0;
  return () => {
    if (at >= pool.length) [pool, at] = [crypto.randomBytes(8 * 1024), 0];
    return pool.toString('hex', at, (at += 8));
  };
}

/**
 * One line per request, written when it is answered: what was asked and from where, the status and
 * the time (Fastify writes a second line as each request comes in; each line is a write to the log).
 *
 * An answered request's line holds only what the serializers draw from it (method, address without
 * its query, remote address, status, time): nothing of it can be a secret, so it is written by a
 * logger that does not look for secrets to redact (which took two to three times as long as writing
 * the rest of the line). A failed request's line carries its error and is redacted, as every other
 * line is.
 */
export class OneLinePerRequest extends LogController {
  private readonly plain = new WeakMap<object, FastifyRequest['log']>();

  override incomingRequest() {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    if (this.isLogDisabled(request)) return;
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) return reply.log.error({ ...line, err: error }, 'request errored');
    const root = request.server.log;
    let plain = this.plain.get(root);
    if (!plain) this.plain.set(root, (plain = root.child({}, { redact: [] })));
    plain.info({ [this.requestIdLogLabel]: request.id, ...line }, 'request completed');
  }
}
