/**
 * Which stored files records use. A field declared `files: true` (a product's images, an
 * application's CV) holds addresses of uploaded files; saving a record marks the files it names as
 * attached. Files no record ever named are swept once their grace period is over, so uploads that
 * were never used do not pile up.
 */
import type { EntityContract } from '../contract';
import { now, type DB, type Row } from './db';
import { dueOf, pastDue, sweepEach, type Due, type SweepRun } from './sweeps';
import type { FileKind, FileStore } from './storage';
import { cleanTag } from './uploads';

export interface UploadPolicy {
  /** What one user may store, in bytes (files and thumbnails); admins are exempt. */
  quotaBytes: number;
  /** How long an upload may wait for a record to name it before it is swept. */
  graceMs: number;
}

export const DEFAULT_UPLOAD_POLICY: UploadPolicy = { quotaBytes: 250 * 1024 * 1024, graceMs: 24 * 3600_000 };

/** How often each process sweeps. */
const SWEEP_EVERY = 10 * 60_000;

const KIND_FOLDER: Record<string, FileKind> = { image: 'images', docx: 'documents' };

/**
 * The stored names of the files a value names: image addresses `…/files/images/{tag}_{n}.png` (the
 * tag cleaned as the upload cleaned it) and document addresses `…/download/{name}.docx`.
 */
export function fileNamesIn(value: unknown): string[] {
  if (typeof value !== 'string') return value === null || value === undefined ? [] : fileNamesIn(JSON.stringify(value));
  const names = new Set<string>();
  for (const m of value.matchAll(/\/files\/images\/(.+?)_([1-4])\.png/g)) names.add(`${cleanTag(safeDecode(m[1]))}_${m[2]}.png`);
  for (const m of value.matchAll(/\/download\/([A-Za-z0-9_-]{1,120}\.docx)/g)) names.add(m[1]);
  return [...names];
}

/** Percent-decoded text, or the text as it came when it is not valid percent-encoding ('%'). */
export const safeDecode = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/** Marks the files a saved record names (in its fields declared `files`) as attached. */
export async function attachFiles(db: DB, entity: EntityContract, row: Row): Promise<void> {
  const names = Object.entries(entity.fields).filter(([, field]) => field.files).flatMap(([name]) => fileNamesIn(row[name]));
  if (!names.length) return;
  await db.updateTable('uploads').set({ attached_at: now() }).where('file_name', 'in', names).where('attached_at', 'is', null).execute();
}

/**
 * Removes uploads no record ever named that are older than the grace period at `at`; answers how
 * many. Each row is deleted only if it is still unattached, and its files removed in the same
 * transaction: with several processes, one of them removes each, and an upload replacing the same
 * name waits for it. An upload whose files the store does not remove keeps its row, is reported with
 * its keys and left to the next run, and the others go on (server/sweeps.ts); without `report`, the
 * first failure is thrown.
 */
export async function sweepUnattached(db: DB, store: FileStore, at: number, graceMs: number, run: Partial<Omit<SweepRun, 'db'>> = {}): Promise<number> {
  const before = new Date(at - graceMs).toISOString();
  const due = (after: Due | undefined, limit: number) => {
    let query = db.selectFrom('uploads').select(['id', 'created_at as at']).where('attached_at', 'is', null).where('created_at', '<', before);
    if (after) query = query.where(pastDue('created_at', 'id', after));
    return query.orderBy('created_at').orderBy('id').limit(limit).execute().then(dueOf);
  };
  const report = run.report ?? ((error: unknown) => { throw error; });
  return sweepEach({ db, report, stopping: run.stopping }, 'the upload', due, async (trx, id) => {
    const gone = await trx.deleteFrom('uploads').where('id', '=', id).where('attached_at', 'is', null)
      .returning(['kind', 'file_name', 'thumb_name']).executeTakeFirst();
    if (!gone) return false;
    const kind = KIND_FOLDER[String(gone.kind)] ?? 'images';
    const names = [gone.file_name, gone.thumb_name].filter(Boolean).map(String);
    try {
      await store.remove(kind, names);
    } catch (error) {
      throw new Error(`the file store did not remove ${names.map((name) => `${kind}/${name}`).join(', ')}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    return true;
  });
}

/** Sweeps every 10 minutes, without keeping the process alive; each upload that fails goes to `onError`; returns a stop function. */
export function scheduleSweep(db: DB, store: FileStore, graceMs: number, clock: () => number, onError: (error: unknown) => void): () => void {
  const timer = setInterval(() => void sweepUnattached(db, store, clock(), graceMs, { report: onError }).catch(onError), SWEEP_EVERY);
  timer.unref();
  return () => clearInterval(timer);
}
