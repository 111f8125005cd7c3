/**
 * Backup and restore of the embedded database and its files (SQLite only: PostgreSQL is backed up
 * with its own tools). A backup taken while clients write holds every write acknowledged before it
 * began, passes SQLite's integrity check, and restores into an empty DATA_DIR with the same rows and
 * the same file bytes; the restored server signs in and serves them.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import SQLite from '../../server/sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { startProcess, type ServerProcess } from '../../server/dev/process';
import { demo } from './harness';

const run = promisify(execFile);
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'marketplace-backup-'));
const started: ServerProcess[] = [];
afterAll(async () => {
  await Promise.all(started.map((s) => s.stop()));
  fs.rmSync(root, { recursive: true, force: true });
});

const command = (dataDir: string, ...args: string[]) =>
  run(process.execPath, ['--import', 'tsx', 'server/ops/commands.ts', ...args], { env: { ...process.env, DATA_DIR: dataDir } });

const shop = (name: string) => ({
  name, description: 'Kept goods', category_id: 1,
  address: { street_name: '1 Test Road', zip: '1000', country: 'Nigeria' },
  bank: { bank_name: 'Bank', bank_country: 'Nigeria', account_name: 'Test', account_number: '1' },
});

/** Every table's rows (text-search tables aside), in order. */
function tables(file: string): Record<string, unknown[]> {
  const db = new SQLite(file, { readonly: true });
  try {
    const names = db.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '%_fts%' order by name").pluck().all() as string[];
    return Object.fromEntries(names.map((n) => [n, db.prepare(`select * from "${n}" order by rowid`).all()]));
  } finally {
    db.close();
  }
}

function fileHashes(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const p = path.join(rel, e.name);
      if (e.isDirectory()) walk(p);
      else out[p] = crypto.createHash('sha256').update(fs.readFileSync(path.join(dir, p))).digest('hex');
    }
  };
  if (fs.existsSync(dir)) walk('');
  return out;
}

describe('backup and restore', () => {
  it('a backup taken under writes restores to the same rows and file bytes, and the restored server serves them', async () => {
    const live = path.join(root, 'live');
    const server = await startProcess({ DATA_DIR: live });
    started.push(server);
    const token = await server.login(demo.admin.email, demo.admin.password);
    const acknowledged = new Map<number, string>();
    let reached!: () => void;
    const enough = new Promise<void>((resolve) => (reached = resolve));
    let stop = false;
    const writer = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const answer = await server.post('/shop', shop(`kept ${w}-${i}`), token);
        expect(answer.body).toMatchObject({ status: true });
        acknowledged.set(Number(answer.body.detail.id), `kept ${w}-${i}`);
        if (acknowledged.size >= 50) reached();
      }
    };
    const writers = Array.from({ length: 8 }, (_, w) => writer(w));
    await enough;
    const before = new Map(acknowledged);
    const saved = path.join(root, 'saved');
    const { stdout } = await command(live, 'backup', '--to', saved);
    stop = true;
    await Promise.all(writers);
    expect(stdout).toMatch(/^Backed up .* the database and [\d,]+ files$/m);

    // Every write acknowledged before the backup began is in it; the copy is whole.
    const copy = new SQLite(path.join(saved, 'marketplace.sqlite'), { readonly: true });
    const kept = copy.prepare(`select id, name from shops where id in (${[...before.keys()].join(',')})`).all() as { id: number; name: string }[];
    expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
    copy.close();
    expect(new Map(kept.map((r) => [r.id, r.name]))).toEqual(before);
    const liveFiles = fileHashes(path.join(live, 'files'));
    expect(Object.keys(liveFiles).length).toBeGreaterThan(0);
    expect(fileHashes(path.join(saved, 'files'))).toEqual(liveFiles);

    // Restore: the same rows, the same bytes, private files.
    const restored = path.join(root, 'restored');
    await command(restored, 'restore', '--from', saved);
    expect(tables(path.join(restored, 'marketplace.sqlite'))).toEqual(tables(path.join(saved, 'marketplace.sqlite')));
    expect(fileHashes(path.join(restored, 'files'))).toEqual(liveFiles);
    expect(fs.statSync(path.join(restored, 'marketplace.sqlite')).mode & 0o777).toBe(0o600);
    expect(fs.statSync(restored).mode & 0o777).toBe(0o700);

    const again = await startProcess({ DATA_DIR: restored });
    started.push(again);
    const admin = await again.login(demo.admin.email, demo.admin.password);
    const last = Math.max(...before.keys());
    const found = await again.post('/search-dive', { keyIndex: 10, value: String(last), targets: ['id'] }, admin);
    expect(found.body.HLL).toEqual([expect.objectContaining({ id: last, name: before.get(last) })]);
  }, 180_000);

  it('refuses a non-empty target, a folder without a finished backup, and a PostgreSQL database', async () => {
    const data = path.join(root, 'refusals');
    fs.mkdirSync(data);
    fs.writeFileSync(path.join(data, 'something'), 'x');
    const empty = fs.mkdtempSync(path.join(root, 'empty-'));
    await expect(command(data, 'restore', '--from', empty)).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('holds no finished backup') });
    fs.writeFileSync(path.join(empty, 'backup.json'), JSON.stringify({ created_at: '', database: 'marketplace.sqlite', files: {} }));
    await expect(command(data, 'restore', '--from', empty)).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('is not empty: restore into a new or empty folder') });
    await expect(command(path.join(root, 'live'), 'backup', '--to', data)).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('is not empty: back up into a new or empty folder') });
    await expect(run(process.execPath, ['--import', 'tsx', 'server/ops/commands.ts', 'backup', '--to', path.join(root, 'pg')], {
      env: { ...process.env, DATA_DIR: data, DATABASE_URL: 'postgres://x@127.0.0.1:1/x' },
    })).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('pg_dump') });
    await expect(command(data, 'backup')).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('Usage:') });
  }, 120_000);

  it('with FILES_BUCKET, copies the database and says the bucket is not copied', async () => {
    const to = path.join(root, 'with-bucket');
    const bucketEnv = { ...process.env, DATA_DIR: path.join(root, 'live'), FILES_BUCKET: 'shop-files' };
    const done = await run(process.execPath, ['--import', 'tsx', 'server/ops/commands.ts', 'backup', '--to', to], { env: bucketEnv });
    expect(done.stdout).toContain("the database only; the files in bucket shop-files are not copied: keep them with the provider's versioning or replication, or aws s3 sync s3://shop-files DIR");
    expect(fs.existsSync(path.join(to, 'marketplace.sqlite'))).toBe(true);
    expect(fs.existsSync(path.join(to, 'files'))).toBe(false);
    await expect(run(process.execPath, ['--import', 'tsx', 'server/ops/commands.ts', 'backup', '--to', path.join(root, 'pg-bucket')], {
      env: { ...bucketEnv, DATABASE_URL: 'postgres://x@127.0.0.1:1/x' },
    })).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('the files in bucket shop-files are not copied') });
  }, 120_000);
});
