/**
 * Starts the reference server: the console at '/', the API at '/api' (DESIGN §5). With WORKERS=n
 * (or auto: one per core) the first process prepares the database, then n API processes share the
 * port (node:cluster) on it; one that dies is replaced.
 */
import cluster from 'node:cluster';
import path from 'node:path';
import { readConfig } from './config';
import { exclusively, migrate, openDatabase } from './db';
import { grantNewAccessTokens } from './accessTokens';
import { buildApp } from './app';
import { logDestination, loggerOptions } from './logging';
import { seedDemo, seedReference } from './seed';
import { MailWorker, printNewMails, smtpTransport } from './mail';
import { schedulePurge, scheduleSweeps } from './maintenance';
import { registry } from './registry';
import { DEFAULT_LIMITS, scaledLimits } from './throttle';
import { superviseWorkers } from './ops/cluster';
import { stopper } from './ops/shutdown';
import { warmUp } from './warm';

const config = readConfig();
if (config.strict && config.dataDialect === 'simple-rest') {
  console.warn('DATA_DIALECT=simple-rest needs the REST face, which strict contract mode (CONTRACT_STRICT=1) leaves out: the console will not load its records.');
}
if (!config.mfaKey) {
  console.warn(config.demo
    ? 'MFA_KEY is not set: authenticator secrets are sealed with a fixed demo key; set MFA_KEY in production.'
    : 'MFA_KEY is not set: authenticator codes cannot be set up (passkeys still can).');
}
const database = openDatabase({ url: config.databaseUrl, file: path.join(config.dataDir, 'marketplace.sqlite') });
// Several workers: the primary migrates and seeds once, before any of them starts.
if (cluster.isPrimary) {
  await migrate(database);
  await exclusively(database, async (db) => {
    await seedReference(db);
    if (config.demo) await seedDemo(db, registry, { files: config });
    const tokens = await grantNewAccessTokens(db, registry);
    if (tokens.grantedTo.length) console.log(`New accesses ${tokens.added.join(', ')} granted to ${tokens.grantedTo.length} full admin(s)`);
  });
}
if (cluster.isPrimary && config.workers > 1) {
  await database.close();
  superviseWorkers(config.workers, () =>
    console.log(`Marketplace console at http://${config.host}:${config.port} (${config.demo ? 'demo' : 'production'} mode${config.strict ? ', strict contract' : ''}, ${config.workers} API processes)`),
  );
} else {
  await serve();
}

async function serve() {
  const stop = stopper();
  const app = await buildApp(
    {
      db: database.db,
      config,
      limits: scaledLimits(config.rateLimitFactor, { ...DEFAULT_LIMITS, upload: { ...DEFAULT_LIMITS.upload, max: config.uploadsPerMinute } }),
      ops: { connections: database.connections, metricsToken: config.metricsToken, stopping: stop.stopping },
    },
    {
      staticDir: config.staticDir, logger: loggerOptions(config.logLevel, logDestination()), trustProxy: config.trustProxy,
      timeouts: {
        connectionsPerAddress: config.connectionsPerAddress,
        ...(config.maxRequestsPerSocket === undefined ? {} : { maxRequestsPerSocket: config.maxRequestsPerSocket }),
      },
    },
  );
  const logError = (msg: string) => (err: unknown) => app.log.error({ err }, msg);
  // Mails go out over SMTP when SMTP_URL is set (every process's worker takes its share of the outbox);
  // otherwise the outbox keeps them and demo mode prints them.
  const stopMail = config.smtpUrl
    ? new MailWorker({ db: database.db, transport: smtpTransport(config.smtpUrl), envelopeFrom: config.mailFrom, settings: config.mail, onError: logError('mail delivery failed'), stopping: stop.stopping }).start()
    : config.demo
      ? printNewMails(database.db, 2_000, (text) => console.log(text), logError('printing mails failed'))
      : () => undefined;
  // Expired sessions, used or expired reset links and old attempt counters: purged every 10 minutes.
  const stopPurge = schedulePurge(database.db, 10 * 60_000, logError('purge failed'));
  // Records' work that falls due (an unpaid order's hold ending): swept every minute.
  const stopSweeps = scheduleSweeps(database.db, registry.entities, 60_000, logError('sweep failed'));

  stop.onSignals(app, { graceSeconds: config.shutdownGraceSeconds, delaySeconds: config.shutdownDelaySeconds }, async (leftMs) => {
    // A mail being sent is finished if what is left of the grace period allows (server/mail.ts).
    await Promise.all([stopMail(leftMs), stopPurge(), stopSweeps()]);
    await database.close();
  });
  await app.listen({ port: config.port, host: config.host });
  // The first searches and pages as fast as later ones: the database's connections opened, then
  // samples taken, code and statements warmed, in the background (server/warm.ts).
  void database.openConnections()
    .catch(logError('opening the database connections failed'))
    .then(() => warmUp(database.db, registry.entities, stop.stopping))
    .catch(logError('warm-up failed'));
  if (cluster.isPrimary) {
    console.log(`Marketplace console at http://${config.host}:${config.port} (${config.demo ? 'demo' : 'production'} mode${config.strict ? ', strict contract' : ''})`);
  }
}
