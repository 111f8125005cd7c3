/**
 * Which stored files records use. A field declared `files: true` (a product's images, an
 * application's CV) holds addresses of uploaded files; saving a record marks the files it names as
 * attached. Files no record ever named are swept once their grace period is over, so uploads that
 * were never used do not pile up.
 */
import type { EntityContract } from '../contract';
import { now, type DB, type Row } from './db';
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
 * Removes uploads no record ever named that are older than the grace period at `at`. Each row is
 * deleted only if it is still unattached, and its files removed in the same transaction: with
 * several processes, one of them removes each, and an upload replacing the same name waits for it.
 */
export async function sweepUnattached(db: DB, store: FileStore, at: number, graceMs: number): Promise<number> {
  const before = new Date(at - graceMs).toISOString();
  const rows = await db
    .selectFrom('uploads').select(['id', 'kind', 'file_name', 'thumb_name'])
    .where('attached_at', 'is', null).where('created_at', '<', before)
    .orderBy('id').limit(1000).execute();
  let swept = 0;
  for (const row of rows) {
    await db.transaction().execute(async (trx) => {
      const gone = await trx.deleteFrom('uploads').where('id', '=', Number(row.id)).where('attached_at', 'is', null).executeTakeFirst();
      if (Number(gone.numDeletedRows) === 0) return;
      await store.remove(KIND_FOLDER[String(row.kind)] ?? 'images', [row.file_name, row.thumb_name].filter(Boolean).map(String));
      swept++;
    });
  }
  return swept;
}

/** Sweeps every 10 minutes, without keeping the process alive; returns a stop function. */
export function scheduleSweep(db: DB, store: FileStore, graceMs: number, clock: () => number, onError: (error: unknown) => void): () => void {
  const timer = setInterval(() => void sweepUnattached(db, store, clock(), graceMs).catch(onError), SWEEP_EVERY);
  timer.unref();
  return () => clearInterval(timer);
}
