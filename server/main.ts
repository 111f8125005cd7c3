/** Starts the reference server: the console at '/', the API at '/api' (DESIGN §5). */
import path from 'node:path';
import { readConfig } from './config';
import { exclusively, migrate, openDatabase } from './db';
import { buildApp } from './app';
import { seedDemo, seedReference } from './seed';

const config = readConfig();
const database = openDatabase({ url: config.databaseUrl, file: path.join(config.dataDir, 'marketplace.sqlite') });
await migrate(database);
await exclusively(database, async (db) => {
  await seedReference(db);
  if (config.demo) await seedDemo(db);
});

const app = await buildApp(
  {
    db: database.db,
    config,
    // The embedded server sends no real mail: the outbox keeps it, and demo mode prints it.
    onMail: config.demo ? (mail) => console.log(`Mail to ${mail.to}: ${mail.subject}\n${mail.body}`) : undefined,
  },
  { staticDir: config.staticDir, logger: process.env.LOG === '1' },
);
const shutdown = async () => {
  await app.close();
  await database.close();
  process.exit(0);
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
await app.listen({ port: config.port, host: config.host });
console.log(`Marketplace console at http://${config.host}:${config.port} (${config.demo ? 'demo' : 'production'} mode${config.strict ? ', strict contract' : ''})`);
