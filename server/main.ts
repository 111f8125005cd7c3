/** Starts the reference server: the console at '/', the API at '/api' (DESIGN §5). */
import path from 'node:path';
import { readConfig } from './config';
import { exclusively, migrate, openDatabase } from './db';
import { buildApp } from './app';
import { loggerOptions } from './logging';
import { seedDemo, seedReference } from './seed';
import { seedProductImages } from './seeds/productImages';
import { smtpSender, type Mail } from './mail';
import { schedulePurge } from './maintenance';
import { scaledLimits } from './throttle';

const config = readConfig();
if (config.strict && config.dataDialect === 'simple-rest') {
  console.warn('DATA_DIALECT=simple-rest needs the REST face, which strict contract mode (CONTRACT_STRICT=1) leaves out: the console will not load its records.');
}
const database = openDatabase({ url: config.databaseUrl, file: path.join(config.dataDir, 'marketplace.sqlite') });
await migrate(database);
await exclusively(database, async (db) => {
  await seedReference(db);
  if (config.demo && (await seedDemo(db))) await seedProductImages(db, config.dataDir);
});

// Mails go out over SMTP when SMTP_URL is set; otherwise the outbox keeps them and demo mode prints them.
let onMail: ((mail: Mail) => void) | undefined;
const app = await buildApp(
  {
    db: database.db,
    config,
    onMail: (mail) => onMail?.(mail),
    limits: scaledLimits(config.rateLimitFactor),
  },
  { staticDir: config.staticDir, logger: loggerOptions(config.logLevel), trustProxy: config.trustProxy },
);
const logError = (msg: string) => (err: unknown) => app.log.error({ err }, msg);
if (config.smtpUrl) onMail = smtpSender(config.smtpUrl, config.mailFrom, logError('mail delivery failed'));
else if (config.demo) onMail = (mail) => console.log(`Mail to ${mail.to}: ${mail.subject}\n${mail.body}`);
// Expired sessions, used or expired reset links and old attempt counters: purged every 10 minutes.
const stopPurge = schedulePurge(database.db, 10 * 60_000, logError('purge failed'));

const shutdown = async () => {
  stopPurge();
  await app.close();
  await database.close();
  process.exit(0);
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
await app.listen({ port: config.port, host: config.host });
console.log(`Marketplace console at http://${config.host}:${config.port} (${config.demo ? 'demo' : 'production'} mode${config.strict ? ', strict contract' : ''})`);
