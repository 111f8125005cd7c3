/** Run-time settings of the reference server, from the environment. */
import os from 'node:os';
import path from 'node:path';
import type { LogLevel } from './logging';
import { DEFAULT_UPLOAD_POLICY, type UploadPolicy } from './attachments';
import { DEFAULT_LIMITS } from './throttle';
import { MAIL_DEFAULTS, type MailSettings } from './mail';
import { SESSION_IDLE_MINUTES, SESSION_TTL_MS } from './auth';

const LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Where the API is served, under the console's origin (DESIGN §5): every contract path follows it. */
export const API_PREFIX = '/api';

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
  /** The outbox worker: attempts per mail, the first wait between them (doubled each time), how often it looks. */
  mail: MailSettings;
  /** Multiplies every attempt limit (sign-in, reset, registration, anonymous writes, signed-in creates, uploads); 0 turns them off. */
  rateLimitFactor: number;
  /**
   * The proxies in front of the server (TRUST_PROXY; 0: none), by number (every request comes
   * through them) or by their addresses (IPs or CIDR ranges, comma-separated): a client's address is
   * the entry of X-Forwarded-For the farthest of them appended, never one the client wrote itself.
   */
  trustProxy: number | string;
  /** When set, the console's config.json is served with this dataDialect (DATA_DIALECT). */
  dataDialect?: DataDialect;
  /** API processes sharing the port (node:cluster); WORKERS=auto: one per core. 1 by default. */
  workers: number;
  /** Requests one keep-alive connection may carry before it is closed (0: no limit). */
  maxRequestsPerSocket?: number;
  /** Connections one client address may hold open at once (0: no limit; off by default behind a proxy). */
  connectionsPerAddress: number;
  /** Storage per user and the grace period of unattached uploads (server/attachments.ts). */
  uploads: UploadPolicy;
  /** Uploads one user may make per minute. */
  uploadsPerMinute: number;
  /** Minutes an unpaid new order holds its stock (ORDER_HOLD_MINUTES). */
  orderHoldMinutes?: number;
  /** Most of one product a buyer may hold in unpaid orders (ORDER_MAX_PER_BUYER). */
  orderMaxPerBuyer?: number;
  /** Days a delivered order's earnings stay pending before they can be paid out (PAYOUT_HOLD_DAYS, 14 by default). */
  payoutHoldDays?: number;
  /** GET /metrics answers only `Authorization: Bearer <METRICS_TOKEN>`; off without it. */
  metricsToken?: string;
  /** On SIGTERM, how long requests in flight may take before their connections are cut. */
  shutdownGraceSeconds: number;
  /** On SIGTERM, how long the process answers while /api/ready says 503, before it stops listening (none by default). */
  shutdownDelaySeconds: number;
  /**
   * FILES_BUCKET: uploaded files go to this S3-compatible bucket instead of DATA_DIR/files (endpoint,
   * region and credentials from the AWS SDK's environment: AWS_ENDPOINT_URL_S3, AWS_REGION, …).
   */
  filesBucket?: string;
  /** MFA_KEY: the key authenticator (TOTP) secrets are sealed with (demo mode has a fixed one without it). */
  mfaKey?: string;
  /** ADMIN_SECOND_FACTOR: 'required' makes every admin set up a second factor before anything else. */
  adminSecondFactor: 'optional' | 'required';
  /** SELLER_SECOND_FACTOR: 'required' makes every seller set up a second factor before anything else. */
  sellerSecondFactor: 'optional' | 'required';
  /** BREACHED_PASSWORDS_URL: a Have I Been Pwned-compatible range service new passwords are looked up in (off without it). */
  breachedPasswordsUrl?: string;
  /** SESSION_IDLE_MINUTES: a session unused this long is refused (30 by default). */
  sessionIdleMinutes: number;
  /** FILES_PATH_STYLE=1: the bucket in the path (MinIO and the like), not in the host name. */
  filesPathStyle: boolean;
}

/** TRUST_PROXY: how many proxies are in front (1 to 10), or their addresses; 0 when unset or 0. */
function proxies(text: string | undefined): number | string {
  const given = (text ?? '').trim();
  if (given === '' || given === '0') return 0;
  return wholeNumber(given, 1, 10) ?? given;
}

/** A whole number from the environment within [min, max], or undefined (the rule's own default). */
function wholeNumber(text: string | undefined, min: number, max: number): number | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const n = Number(text);
  return Number.isInteger(n) && n >= min && n <= max ? n : undefined;
}

/** A whole number from the environment, raised to `min` when below it, or the default when not a number. */
const whole = (value: string | undefined, fallback: number, min = 0) =>
  value !== undefined && value !== '' && Number.isFinite(Number(value)) ? Math.max(min, Math.floor(Number(value))) : fallback;

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
    mail: {
      maxAttempts: wholeNumber(env.MAIL_MAX_ATTEMPTS, 1, 100) ?? MAIL_DEFAULTS.maxAttempts,
      retrySeconds: wholeNumber(env.MAIL_RETRY_SECONDS, 1, 86_400) ?? MAIL_DEFAULTS.retrySeconds,
      pollSeconds: wholeNumber(env.MAIL_POLL_SECONDS, 1, 3600) ?? MAIL_DEFAULTS.pollSeconds,
    },
    rateLimitFactor: env.RATE_LIMIT_FACTOR !== undefined && Number.isFinite(Number(env.RATE_LIMIT_FACTOR)) ? Math.max(0, Number(env.RATE_LIMIT_FACTOR)) : 1,
    trustProxy: proxies(env.TRUST_PROXY),
    dataDialect: DIALECTS.includes(env.DATA_DIALECT as DataDialect) ? (env.DATA_DIALECT as DataDialect) : undefined,
    maxRequestsPerSocket: env.MAX_REQUESTS_PER_SOCKET && Number.isInteger(Number(env.MAX_REQUESTS_PER_SOCKET)) ? Math.max(0, Number(env.MAX_REQUESTS_PER_SOCKET)) : undefined,
    connectionsPerAddress: whole(env.MAX_CONNECTIONS_PER_ADDRESS, proxies(env.TRUST_PROXY) ? 0 : 100),
    uploads: {
      quotaBytes: whole(env.UPLOAD_QUOTA_MB, DEFAULT_UPLOAD_POLICY.quotaBytes / (1024 * 1024)) * 1024 * 1024,
      graceMs: whole(env.UPLOAD_GRACE_HOURS, DEFAULT_UPLOAD_POLICY.graceMs / 3600_000, 1) * 3600_000,
    },
    uploadsPerMinute: whole(env.UPLOADS_PER_MINUTE, DEFAULT_LIMITS.upload.max, 1),
    orderHoldMinutes: wholeNumber(env.ORDER_HOLD_MINUTES, 1, 60 * 24 * 30),
    orderMaxPerBuyer: wholeNumber(env.ORDER_MAX_PER_BUYER, 1, 1000),
    payoutHoldDays: wholeNumber(env.PAYOUT_HOLD_DAYS, 0, 365),
    metricsToken: env.METRICS_TOKEN || undefined,
    shutdownGraceSeconds: env.SHUTDOWN_GRACE_SECONDS && Number(env.SHUTDOWN_GRACE_SECONDS) >= 0 ? Number(env.SHUTDOWN_GRACE_SECONDS) : 20,
    shutdownDelaySeconds: wholeNumber(env.SHUTDOWN_DELAY_SECONDS, 0, 3600) ?? 0,
    filesBucket: env.FILES_BUCKET || undefined,
    filesPathStyle: env.FILES_PATH_STYLE === '1',
    mfaKey: env.MFA_KEY || undefined,
    adminSecondFactor: env.ADMIN_SECOND_FACTOR === 'required' ? 'required' : 'optional',
    sellerSecondFactor: env.SELLER_SECOND_FACTOR === 'required' ? 'required' : 'optional',
    breachedPasswordsUrl: env.BREACHED_PASSWORDS_URL || undefined,
    sessionIdleMinutes: wholeNumber(env.SESSION_IDLE_MINUTES, 1, SESSION_TTL_MS / 60_000) ?? SESSION_IDLE_MINUTES,
    workers: env.WORKERS === 'auto' ? os.availableParallelism() : Math.max(1, Math.min(64, Math.floor(Number(env.WORKERS ?? 1)) || 1)),
  };
}
