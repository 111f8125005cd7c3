/**
 * `npm run lint:api` (part of `npm run lint`): the API document as the app generates it (every
 * route registered, on an empty in-memory database), written to a temporary file and linted with
 * Redocly's recommended ruleset (redocly.yaml: what is turned off, and why). Nothing phones home:
 * Redocly's telemetry and update check are off.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../app';
import { migrate, openDatabase } from '../db';

interface Problem {
  ruleId: string;
  severity: string;
  message: string;
  location: { pointer?: string }[];
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'api-lint-'));
let status = 1;
try {
  const database = openDatabase({});
  await migrate(database);
  const app = await buildApp({ db: database.db, config: { strict: false, publicUrl: 'http://console.test', demo: false, dataDir: dir } });
  await app.ready();
  const file = path.join(dir, 'openapi.json');
  fs.writeFileSync(file, JSON.stringify(app.apiDocument(), null, 2));
  await app.close();
  await database.close();
  const redocly = spawnSync(path.join(ROOT, 'node_modules/.bin/redocly'), ['lint', '--config', path.join(ROOT, 'redocly.yaml'), '--format', 'json', file], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true' },
  });
  // Warnings fail too: each is fixed in the document, or turned off in redocly.yaml with its reason.
  const start = redocly.stdout.indexOf('{');
  const report = start >= 0 ? (JSON.parse(redocly.stdout.slice(start)) as { problems: Problem[] }) : undefined;
  if (!report) {
    process.stderr.write(`Redocly gave no report:\n${redocly.stdout}${redocly.stderr}`);
  } else {
    for (const p of report.problems) process.stderr.write(`${p.severity} ${p.ruleId}: ${p.message} (at ${p.location[0]?.pointer ?? '?'})\n`);
    console.log(`API document: ${report.problems.length} problem(s) by Redocly's recommended ruleset`);
    status = report.problems.length === 0 && redocly.status === 0 ? 0 : 1;
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
process.exit(status);
