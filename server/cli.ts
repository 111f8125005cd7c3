/**
 * Operator commands. `create-admin --email E --password P [--name N] [--phone T]` creates the first
 * admin with every access (production mode seeds no accounts, DESIGN D7).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ADMIN_ABILITIES, MIN_PASSWORD_LENGTH } from '../contract';
import { registry } from './registry';
import { readConfig } from './config';
import { migrate, openDatabase } from './db';
import { seedReference } from './seed';
import { createUser } from './routes/users';
import { readNewPassword } from './passwords';

const [command, ...rest] = process.argv.slice(2);
if (command !== 'create-admin') {
  console.error('Usage: create-admin --email EMAIL --password PASSWORD [--name NAME] [--phone PHONE]');
  process.exit(2);
}
const { values } = parseArgs({
  args: rest,
  options: { email: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' }, phone: { type: 'string' } },
});
if (!values.email || !values.password || values.password.length < MIN_PASSWORD_LENGTH) {
  console.error(`create-admin needs --email and a --password of at least ${MIN_PASSWORD_LENGTH} characters`);
  process.exit(2);
}
const config = readConfig();
// The rules of every new password: not common, no context-specific word, not breached (when the
// operator set BREACHED_PASSWORDS_URL).
const name = values.name ?? 'Administrator';
try {
  await readNewPassword(values, { name, email: values.email, phone: values.phone }, {
    breachedPasswordsUrl: config.breachedPasswordsUrl, warn: (message) => console.warn(message),
  });
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(2);
}
const database = openDatabase({ url: config.databaseUrl, file: path.join(config.dataDir, 'marketplace.sqlite') });
await migrate(database);
await seedReference(database.db);
const exists = await database.db.selectFrom('users').select('id').where('email', '=', values.email.toLowerCase()).executeTakeFirst();
if (exists) {
  console.error(`A user with the email ${values.email} already exists`);
  await database.close();
  process.exit(1);
}
const user = await createUser(database.db, {
  name, email: values.email, phone: values.phone ?? '', password: values.password,
  abilities: ADMIN_ABILITIES, granted: [...registry.assignable],
});
console.log(`Created admin ${String(user.email)} (id ${String(user.id)}) with every access`);
await database.close();
