/**
 * The operator's data commands (docs/operations.md, "Backup and restore", "Moving to PostgreSQL"):
 *
 *   npm run backup -- --to DIR          the embedded database and the files, while the server runs
 *   npm run restore -- --from DIR       into DATA_DIR, which must be empty
 *   npm run move-data -- --to postgres://user:password@host:5432/database
 */
import { parseArgs } from 'node:util';
import { readConfig } from '../config';
import { CommandError, backup, bucketAdvice, restore } from './backup';
import { moveData } from './moveData';

const USAGE = 'Usage: backup --to DIR | restore --from DIR | move-data --to postgres://…';
const [command, ...rest] = process.argv.slice(2);
const { values } = parseArgs({ args: rest, options: { to: { type: 'string' }, from: { type: 'string' } } });
const config = readConfig();

const count = (n: number) => n.toLocaleString('en');

async function run(): Promise<void> {
  if (command === 'backup' && values.to) {
    const manifest = await backup({ dataDir: config.dataDir, to: values.to, databaseUrl: config.databaseUrl, filesBucket: config.filesBucket });
    if (config.filesBucket) console.log(`Backed up ${config.dataDir} to ${values.to}: the database only; ${bucketAdvice(config.filesBucket)}`);
    else console.log(`Backed up ${config.dataDir} to ${values.to}: the database and ${count(Object.keys(manifest.files).length)} files`);
  } else if (command === 'restore' && values.from) {
    const manifest = await restore({ dataDir: config.dataDir, from: values.from });
    console.log(`Restored the backup of ${manifest.created_at} into ${config.dataDir}: the database and ${count(Object.keys(manifest.files).length)} files`);
  } else if (command === 'move-data' && values.to) {
    const started = Date.now();
    const tty = process.stdout.isTTY;
    let shown = 0;
    const moved = await moveData({
      dataDir: config.dataDir,
      to: values.to,
      progress: (table, done, total) => {
        // One line rewritten on a terminal; otherwise a line every 50,000 rows and at each table's end.
        if (tty) process.stdout.write(`\r\x1b[K${table}: ${count(done)} / ${count(total)} rows`);
        else if (done === total || done - shown >= 50_000) {
          console.log(`${table}: ${count(done)} / ${count(total)} rows`);
          shown = done === total ? 0 : done;
        }
      },
    });
    if (tty) process.stdout.write('\n');
    const rows = Object.values(moved).reduce((a, b) => a + b, 0);
    console.log(`Moved ${count(rows)} rows of ${Object.keys(moved).length} tables into PostgreSQL in ${((Date.now() - started) / 1000).toFixed(1)} s; start the server with DATABASE_URL set to it`);
  } else {
    throw new CommandError(USAGE);
  }
}

try {
  await run();
} catch (error) {
  console.error(error instanceof CommandError ? error.message : error);
  process.exit(error instanceof CommandError ? 2 : 1);
}
