/** Run-time settings of the reference server, from the environment. */
import os from 'node:os';
import path from 'node:path';
import type { LogLevel } from './logging';

const LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** How the console talks to the API: the contract's POST calls, or react-admin's simple REST dialect. */
export type DataDialect = 'contract' | 'simple-rest';
const DIALECTS: readonly DataDialect[] = ['contract', 'simple-rest'];

export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  /** Demo mode seeds demo data and the three demo accounts (DESIGN D7). */
  demo: boolean;
  /** Contract only: extension endpoints answer 404 and extension request fields are ignored. */
  strict: boolean;
  /** Where the built console lives; served at '/'. */
  staticDir: string;
  /** Public address used in mails (password reset links). */
  publicUrl: string;
  /** When set, the directory stand-in at /directory requires this key in the X-CSCAPI-KEY header. */
  directoryKey?: string;
  /** Structured logs (pino) at this level; 'info' by default, 'silent' for none. */
  logLevel: LogLevel;
  /** SMTP delivery (nodemailer URL, e.g. smtps://user:pass@mail.example.com) and the sender address. */
  smtpUrl?: string;
  mailFrom: string;
  /** Multiplies every attempt limit (sign-in, reset, registration, anonymous writes); 0 turns them off. */
  rateLimitFactor: number;
  /** Behind a load balancer: client addresses come from X-Forwarded-For. */
  trustProxy: boolean;
  /** When set, the console's config.json is served with this dataDialect (DATA_DIALECT). */
  dataDialect?: DataDialect;
  /** API processes sharing the port (node:cluster); WORKERS=auto: one per core. 1 by default. */
  workers: number;
  /** Requests one keep-alive connection may carry before it is closed (0: no limit). */
  maxRequestsPerSocket?: number;
  /** GET /metrics answers only `Authorization: Bearer <METRICS_TOKEN>`; off without it. */
  metricsToken?: string;
  /** On SIGTERM, how long requests in flight may take before their connections are cut. */
  shutdownGraceSeconds: number;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = Number(env.PORT ?? 8080);
  const host = env.HOST ?? '127.0.0.1';
  const production = env.NODE_ENV === 'production';
  return {
    port,
    host,
    dataDir: path.resolve(env.DATA_DIR ?? 'data'),
    databaseUrl: env.DATABASE_URL || undefined,
    demo: env.DEMO ? env.DEMO !== '0' : !production,
    strict: env.CONTRACT_STRICT === '1',
    staticDir: path.resolve(env.STATIC_DIR ?? 'dist'),
    publicUrl: env.PUBLIC_URL ?? `http://${host}:${port}`,
    directoryKey: env.DIRECTORY_KEY || undefined,
    logLevel: LEVELS.includes(env.LOG_LEVEL as LogLevel) ? (env.LOG_LEVEL as LogLevel) : 'info',
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || `Marketplace <no-reply@${new URL(env.PUBLIC_URL ?? `http://${host}`).hostname}>`,
    rateLimitFactor: env.RATE_LIMIT_FACTOR !== undefined && Number.isFinite(Number(env.RATE_LIMIT_FACTOR)) ? Math.max(0, Number(env.RATE_LIMIT_FACTOR)) : 1,
    trustProxy: env.TRUST_PROXY === '1',
    dataDialect: DIALECTS.includes(env.DATA_DIALECT as DataDialect) ? (env.DATA_DIALECT as DataDialect) : undefined,
    maxRequestsPerSocket: env.MAX_REQUESTS_PER_SOCKET && Number.isInteger(Number(env.MAX_REQUESTS_PER_SOCKET)) ? Math.max(0, Number(env.MAX_REQUESTS_PER_SOCKET)) : undefined,
    metricsToken: env.METRICS_TOKEN || undefined,
    shutdownGraceSeconds: env.SHUTDOWN_GRACE_SECONDS && Number(env.SHUTDOWN_GRACE_SECONDS) >= 0 ? Number(env.SHUTDOWN_GRACE_SECONDS) : 20,
    workers: env.WORKERS === 'auto' ? os.availableParallelism() : Math.max(1, Math.min(64, Math.floor(Number(env.WORKERS ?? 1)) || 1)),
  };
}
