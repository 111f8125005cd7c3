/**
 * Structured logs (Fastify's pino): one line per request and per error, with the request id, and
 * never a secret: authorization headers, cookies, passwords and tokens are redacted, and query
 * strings (a reset link carries its token there) are cut from logged URLs.
 */
import crypto from 'node:crypto';
import type { FastifyServerOptions } from 'fastify';

const REDACT = [
  'req.headers.authorization', 'req.headers.cookie', 'req.headers["x-cscapi-key"]', 'res.headers["set-cookie"]',
  '*.password', '*.current_password', '*.password_hash', '*.reset_token', '*.token', '*.authorization',
];

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** Logger settings for a level (LOG_LEVEL; 'info' by default). */
export function loggerOptions(level: LogLevel = 'info'): FastifyServerOptions['logger'] {
  return {
    level,
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

/** A request id unique across processes (several API processes may log to one place). */
export const requestId = () => crypto.randomBytes(8).toString('hex');
