/**
 * Backup and restore of the embedded database and the uploaded files (DATA_DIR), while the server
 * runs:
 * - backup: the database through SQLite's online backup API, copied in one step, so the copy is
 *   the database as one transaction saw it (in WAL mode writers carry on meanwhile); then the files
 *   folder; then `backup.json`, written last: a folder without it is an unfinished backup.
 * - restore: into an empty (or new) DATA_DIR, the database 0600 in a 0700 folder.
 * PostgreSQL is backed up with its own tools (pg_dump, the provider's snapshots), and files in a bucket
 * (FILES_BUCKET) with the provider's (versioning, replication, aws s3 sync): see docs/operations.md.
 */
import fs from 'node:fs';
import path from 'node:path';
import SQLite from '../sqlite';
import { privateFile } from '../db';

export const DATABASE_FILE = 'marketplace.sqlite';
export const MANIFEST = 'backup.json';

export interface Manifest {
  created_at: string;
  database: string;
  /** Every file of the files folder, by its path under it, with its size. */
  files: Record<string, number>;
}

/** A problem the operator must fix (told in one line, exit code 2). */
export class CommandError extends Error {}

const isEmptyDir = (dir: string) => !fs.existsSync(dir) || (fs.statSync(dir).isDirectory() && fs.readdirSync(dir).length === 0);

function listFiles(root: string, under = ''): Record<string, number> {
  const found: Record<string, number> = {};
  if (!fs.existsSync(path.join(root, under))) return found;
  for (const entry of fs.readdirSync(path.join(root, under), { withFileTypes: true })) {
    const rel = path.join(under, entry.name);
    if (entry.isDirectory()) Object.assign(found, listFiles(root, rel));
    else if (entry.isFile()) found[rel.split(path.sep).join('/')] = fs.statSync(path.join(root, rel)).size;
  }
  return found;
}

/** How to keep the files of a bucket: backup copies local files only. */
export const bucketAdvice = (bucket: string) =>
  `the files in bucket ${bucket} are not copied: keep them with the provider's versioning or replication, or aws s3 sync s3://${bucket} DIR`;

export async function backup(opts: { dataDir: string; to: string; databaseUrl?: string; filesBucket?: string }): Promise<Manifest> {
  if (opts.databaseUrl) {
    const files = opts.filesBucket ? bucketAdvice(opts.filesBucket) : 'DATA_DIR/files with any file copy';
    throw new CommandError(`DATABASE_URL is set: back PostgreSQL up with pg_dump or your provider's snapshots, and ${files} (see docs/operations.md)`);
  }
  const source = path.join(opts.dataDir, DATABASE_FILE);
  if (!fs.existsSync(source)) throw new CommandError(`There is no database at ${source} (DATA_DIR)`);
  if (!isEmptyDir(opts.to)) throw new CommandError(`${opts.to} is not empty: back up into a new or empty folder`);
  fs.mkdirSync(opts.to, { recursive: true, mode: 0o700 });
  const target = path.join(opts.to, DATABASE_FILE);
  privateFile(target);
  fs.rmSync(target);
  const sqlite = new SQLite(source, { fileMustExist: true });
  try {
    sqlite.pragma('busy_timeout = 5000');
    // One step for the whole file: a step that is interrupted by a write restarts, so small steps
    // under steady writes might never finish.
    await sqlite.backup(target, { progress: () => 0x7fffffff });
  } finally {
    sqlite.close();
  }
  fs.chmodSync(target, 0o600);
  // Files are written before the rows that name them: every file the copied database names was
  // already there (a file deleted in between is the exception: see docs/operations.md).
  const files = path.join(opts.dataDir, 'files');
  if (!opts.filesBucket && fs.existsSync(files)) fs.cpSync(files, path.join(opts.to, 'files'), { recursive: true, preserveTimestamps: true });
  const manifest: Manifest = { created_at: new Date().toISOString(), database: DATABASE_FILE, files: listFiles(path.join(opts.to, 'files')) };
  fs.writeFileSync(path.join(opts.to, MANIFEST), `${JSON.stringify(manifest, null, 1)}\n`, { mode: 0o600 });
  return manifest;
}

export async function restore(opts: { dataDir: string; from: string }): Promise<Manifest> {
  const manifestFile = path.join(opts.from, MANIFEST);
  if (!fs.existsSync(manifestFile)) throw new CommandError(`${opts.from} holds no finished backup (no ${MANIFEST})`);
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Manifest;
  if (!isEmptyDir(opts.dataDir)) throw new CommandError(`DATA_DIR ${opts.dataDir} is not empty: restore into a new or empty folder`);
  const sizes = listFiles(path.join(opts.from, 'files'));
  for (const [file, size] of Object.entries(manifest.files)) {
    if (sizes[file] !== size) throw new CommandError(`The backup is damaged: files/${file} is missing or has changed`);
  }
  const target = path.join(opts.dataDir, DATABASE_FILE);
  privateFile(target);
  fs.copyFileSync(path.join(opts.from, manifest.database), target);
  fs.chmodSync(target, 0o600);
  const check = new SQLite(target, { readonly: true });
  try {
    const result = check.pragma('quick_check', { simple: true });
    if (result !== 'ok') throw new CommandError(`The backup's database is damaged: ${String(result)}`);
  } finally {
    check.close();
  }
  if (fs.existsSync(path.join(opts.from, 'files'))) fs.cpSync(path.join(opts.from, 'files'), path.join(opts.dataDir, 'files'), { recursive: true, preserveTimestamps: true });
  return manifest;
}
