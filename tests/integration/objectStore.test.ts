/**
 * Files in an S3-compatible bucket (FILES_BUCKET), against a real S3 server the test starts (s3rver):
 * uploads land in the bucket and nowhere on the API's disk, downloads answer what the local folder's
 * driver answers (the same bytes and headers), thumbnails, replacing, clearing, sweeping, the quota
 * and the readiness probe. Then two real API processes, each with its own DATA_DIR, on one
 * PostgreSQL: with the bucket an image uploaded through one is served by the other, every time; with
 * the local folder the other answers 404 (so several machines need the bucket).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialect, freshDatabase, startServer, ADMIN, type TestServer } from './harness';
import { startLocalObjectStore, type LocalObjectStore } from '../../server/dev/objectStore';
import { startProcess, type ServerProcess } from '../../server/dev/process';
import { DEFAULT_UPLOAD_POLICY, sweepUnattached } from '../../server/attachments';
import { openFileStore } from '../../server/storage';
import { openDatabase } from '../../server/db';
import { createUser } from '../../server/routes/users';
import { zip } from '../fixtures/zip';

const DOCX = zip({ '[Content_Types].xml': '<Types/>', 'word/document.xml': '<w:document/>' });
let PNG: Buffer;
let JPEG: Buffer;

let bucket: LocalObjectStore;
let client: S3Client;
const saved: Record<string, string | undefined> = {};
/** Every object in the bucket, by key. */
const keys = async () =>
  ((await client.send(new ListObjectsV2Command({ Bucket: bucket.bucket }))).Contents ?? []).map((o) => o.Key!).sort();
const inBucket = () => ({ filesBucket: bucket.bucket, filesPathStyle: true });
/** Every file under a DATA_DIR's files folder (the incoming folder is there, empty between uploads). */
const onDisk = (dataDir: string) =>
  fs.readdirSync(path.join(dataDir, 'files'), { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => d.name);

beforeAll(async () => {
  [PNG, JPEG] = await Promise.all([
    sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 20, g: 80, b: 200 } } }).png().toBuffer(),
    sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 200, g: 80, b: 20 } } }).jpeg().toBuffer(),
  ]);
  bucket = await startLocalObjectStore();
  // The AWS SDK's own environment: endpoint, region, credentials (as an operator sets them); put back
  // after, so no later server process inherits the bucket.
  for (const name of Object.keys(bucket.env)) saved[name] = process.env[name];
  Object.assign(process.env, bucket.env);
  client = new S3Client({ forcePathStyle: true });
});
afterAll(async () => {
  client?.destroy();
  await bucket?.stop();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

async function upload(url: string, p: string, files: Buffer[], fields: Record<string, string>, token: string) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  files.forEach((bytes, i) => form.append(['file', 'file1', 'file2', 'file3'][i], new Blob([new Uint8Array(bytes)]), 'a.bin'));
  const res = await fetch(url + p, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form });
  return { http: res.status, body: await res.json() };
}

/** What a download answers that the console and browsers read. */
async function download(url: string, token?: string) {
  const res = await fetch(url, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  const headers = Object.fromEntries(['content-type', 'content-length', 'cache-control', 'content-disposition', 'x-content-type-options'].map((h) => [h, res.headers.get(h)]));
  return { http: res.status, headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

describe(`files in an S3-compatible bucket (on ${dialect})`, () => {
  let s: TestServer;
  let disk: TestServer;
  const users: Record<string, { id: number; token: string }> = {};
  /** A tag of the seller's own: a seller's image tags end with their user id (each server's first user). */
  const mine = (name: string) => `${name}_${users.seller.id}`;
  beforeAll(async () => {
    [s, disk] = await Promise.all([startServer({ demo: false, files: inBucket() }), startServer({ demo: false })]);
    users.seller = await s.userWith([1, 2]);
    users.other = await s.userWith([1, 2]);
    users.diskSeller = await disk.userWith([1, 2]);
    // The two servers' files are compared by name: both sellers are their database's first user.
    if (users.diskSeller.id !== users.seller.id) throw new Error('the two sellers should have the same id');
    users.diskAdmin = await disk.userWith(ADMIN, ['job-applicants']);
    users.admin = await s.userWith(ADMIN, ['job-applicants', 'products']);
  });
  afterAll(async () => {
    await Promise.all([s?.close(), disk?.close()]);
  });

  it('stores uploads in the bucket, not on the disk, and serves them with the bytes and headers the local folder gives', async () => {
    const sent = await upload(s.url, '/upload-image', [PNG, JPEG], { tag: mine('Bucket_shoes') }, users.seller.token);
    expect(sent).toMatchObject({ http: 200, body: { status: true, query: '2 images uploaded' } });
    expect(await upload(disk.url, '/upload-image', [PNG, JPEG], { tag: mine('Bucket_shoes') }, users.diskSeller.token)).toMatchObject({ http: 200 });
    expect((await keys()).filter((k) => k.includes(mine('Bucket_shoes')))).toEqual([
      `images/${mine('Bucket_shoes')}_1.png`, `images/${mine('Bucket_shoes')}_1.thumb.webp`, `images/${mine('Bucket_shoes')}_2.png`, `images/${mine('Bucket_shoes')}_2.thumb.webp`,
    ]);
    expect(onDisk(s.dataDir)).toEqual([]);
    for (const name of [`${mine('Bucket_shoes')}_1.png`, `${mine('Bucket_shoes')}_2.png`, `${mine('Bucket_shoes')}_1.png?size=thumb`, `${mine('Bucket_shoes')}_2.png?size=thumb`]) {
      const [fromBucket, fromDisk] = await Promise.all([download(`${s.url}/files/images/${name}`), download(`${disk.url}/files/images/${name}`)]);
      expect(fromBucket.http).toBe(200);
      expect(fromBucket).toEqual(fromDisk);
    }
    const [png, jpeg, thumb] = await Promise.all([`${mine('Bucket_shoes')}_1.png`, `${mine('Bucket_shoes')}_2.png`, `${mine('Bucket_shoes')}_1.png?size=thumb`].map((n) => download(`${s.url}/files/images/${n}`)));
    expect([png.headers['content-type'], jpeg.headers['content-type'], thumb.headers['content-type']]).toEqual(['image/png', 'image/jpeg', 'image/webp']);
    expect(png.headers['x-content-type-options']).toBe('nosniff');
    expect(await sharp(thumb.bytes).metadata()).toMatchObject({ format: 'webp' });
    expect((await download(`${s.url}/files/images/${mine('Bucket_shoes')}_3.png`)).http).toBe(404);
  });

  it('serves a document as an attachment to its uploader only, with the headers the local folder gives', async () => {
    const mine = await upload(s.url, '/upload-docx', [DOCX], {}, users.seller.token);
    expect(mine).toMatchObject({ http: 200, body: { query: 'Document uploaded' } });
    await upload(disk.url, '/upload-docx', [DOCX], {}, users.diskSeller.token);
    expect(await keys()).toContain(`documents/cv_${users.seller.id}.docx`);
    const fromBucket = await download(`${s.url}/download/cv_${users.seller.id}.docx`, users.seller.token);
    const fromDisk = await download(`${disk.url}/download/cv_${users.diskSeller.id}.docx`, users.diskSeller.token);
    expect(fromBucket.http).toBe(200);
    expect({ ...fromBucket.headers, 'content-disposition': null }).toEqual({ ...fromDisk.headers, 'content-disposition': null });
    expect(fromBucket.headers['content-disposition']).toBe(`attachment; filename="cv_${users.seller.id}.docx"`);
    expect(fromBucket.bytes).toEqual(DOCX);
    expect((await download(`${s.url}/download/cv_${users.seller.id}.docx`, users.other.token)).http).toBe(403);
  });

  it('replaces an object in place, and clearing a tag removes its objects', async () => {
    await upload(s.url, '/upload-image', [PNG], { tag: mine('Bucket_replaced') }, users.seller.token);
    const before = await keys();
    expect(before).toContain(`images/${mine('Bucket_replaced')}_1.png`);
    expect((await upload(s.url, '/upload-image', [JPEG], { tag: mine('Bucket_replaced') }, users.seller.token)).http).toBe(200);
    expect(await keys()).toEqual(before);
    expect((await download(`${s.url}/files/images/${mine('Bucket_replaced')}_1.png`)).headers['content-type']).toBe('image/jpeg');
    // Another seller may not replace them: the object stays as it was.
    expect((await upload(s.url, '/upload-image', [PNG], { tag: mine('Bucket_replaced') }, users.other.token)).http).toBe(403);
    expect((await download(`${s.url}/files/images/${mine('Bucket_replaced')}_1.png`)).headers['content-type']).toBe('image/jpeg');
    const cleared = await s.post('/upload/status', { tyype: 'clear', tag: mine('Bucket_replaced') }, users.seller.token);
    expect(cleared.body).toMatchObject({ status: true, query: '1 image removed' });
    expect((await keys()).filter((k) => k.includes(mine('Bucket_replaced')))).toEqual([]);
    expect((await download(`${s.url}/files/images/${mine('Bucket_replaced')}_1.png`)).http).toBe(404);
  });

  it('sweeps an upload no record names from the bucket once its grace period is over', async () => {
    await upload(s.url, '/upload-image', [PNG], { tag: mine('Bucket_swept') }, users.seller.token);
    const row = await s.db.selectFrom('uploads').select('created_at').where('tag', '=', mine('Bucket_swept')).executeTakeFirstOrThrow();
    const grace = DEFAULT_UPLOAD_POLICY.graceMs;
    const store = openFileStore(inBucket());
    try {
      await sweepUnattached(s.db, store, Date.parse(String(row.created_at)) + grace, grace);
      expect(await keys()).toContain(`images/${mine('Bucket_swept')}_1.png`);
      await sweepUnattached(s.db, store, Date.parse(String(row.created_at)) + grace + 1, grace);
    } finally {
      await store.close();
    }
    expect((await keys()).filter((k) => k.includes(mine('Bucket_swept')))).toEqual([]);
    expect((await download(`${s.url}/files/images/${mine('Bucket_swept')}_1.png`)).http).toBe(404);
  });

  it('refuses an upload over the quota leaving nothing in the bucket or on the disk; admins are exempt', async () => {
    const q = await startServer({ demo: false, files: inBucket(), uploads: { quotaBytes: 1 } });
    try {
      const seller = await q.userWith([1, 2]);
      const admin = await q.userWith(ADMIN, ['products']);
      const before = await keys();
      const refused = await upload(q.url, '/upload-image', [PNG], { tag: `Bucket_quota_${seller.id}` }, seller.token);
      expect(refused.http).toBe(413);
      expect(refused.body.query).toMatch(/^Not enough storage left/);
      expect(await keys()).toEqual(before);
      expect(onDisk(q.dataDir)).toEqual([]);
      expect((await upload(q.url, '/upload-image', [PNG], { tag: `Bucket_quota_${seller.id}` }, admin.token)).http).toBe(200);
      expect(await keys()).toContain(`images/Bucket_quota_${seller.id}_1.png`);
    } finally {
      await q.close();
    }
  });

  it('/api/ready answers 200 when the bucket answers, 503 with the reason when it does not exist', async () => {
    expect(await s.get('/api/ready')).toMatchObject({ http: 200, body: { status: true, query: 'Ready' } });
    const lost = await startServer({ demo: false, files: { filesBucket: 'no-such-bucket', filesPathStyle: true } });
    try {
      expect(await lost.get('/api/ready')).toMatchObject({
        http: 503, body: { status: false, query: 'Not ready: the file storage (bucket no-such-bucket) cannot be reached (no such bucket)' },
      });
    } finally {
      await lost.close();
    }
  });
});

// Two processes share a database only on PostgreSQL (SQLite lives in each DATA_DIR).
describe.runIf(dialect === 'postgres')('two API processes, each with its own DATA_DIR, on one PostgreSQL', () => {
  const started: ServerProcess[] = [];
  const folders: string[] = [];
  afterAll(async () => {
    await Promise.all(started.map((p) => p.stop()));
    for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Two processes on a fresh database, with these files settings, and a seller signed in on the first. */
  async function pair(files: Record<string, string>) {
    const fresh = await freshDatabase();
    await fresh.database.close();
    const start = async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'marketplace-machine-'));
      folders.push(dataDir);
      const server = await startProcess({ DATABASE_URL: fresh.url!, DATA_DIR: dataDir, DEMO: '0', ...files });
      started.push(server);
      return { server, dataDir };
    };
    const a = await start();
    const b = await start();
    const database = openDatabase({ url: fresh.url });
    const email = `machines-${Date.now()}@example.com`;
    let id = 0;
    try {
      id = Number((await createUser(database.db, { name: 'Seller', email, phone: '', password: 'password123', abilities: [1, 2], granted: [] })).id);
    } finally {
      await database.close();
    }
    return { a, b, id, token: await a.server.login(email, 'password123') };
  }

  it('with the bucket, an image uploaded through one is served by the other, every time, and is on neither disk', async () => {
    const { a, b, id, token } = await pair(bucket.env);
    const sent = await upload(a.server.url, '/upload-image', [PNG, JPEG, PNG, JPEG], { tag: `Machines_bucket_${id}` }, token);
    expect(sent).toMatchObject({ http: 200, body: { query: '4 images uploaded' } });
    for (const n of [1, 2, 3, 4]) {
      const [fromA, fromB] = await Promise.all([a, b].map((m) => download(`${m.server.url}/files/images/Machines_bucket_${id}_${n}.png`)));
      expect(fromB.http).toBe(200);
      expect(fromB).toEqual(fromA);
      expect((await download(`${b.server.url}/files/images/Machines_bucket_${id}_${n}.png?size=thumb`)).headers['content-type']).toBe('image/webp');
    }
    expect(await keys()).toContain(`images/Machines_bucket_${id}_4.png`);
    expect([...onDisk(a.dataDir), ...onDisk(b.dataDir)]).toEqual([]);
  }, 120_000);

  it('with the local folder, the other process answers 404: the file is on the first one\'s disk only', async () => {
    const { a, b, id, token } = await pair({ FILES_BUCKET: '' });
    expect((await upload(a.server.url, '/upload-image', [PNG], { tag: `Machines_disk_${id}` }, token)).http).toBe(200);
    expect((await download(`${a.server.url}/files/images/Machines_disk_${id}_1.png`)).http).toBe(200);
    expect((await download(`${b.server.url}/files/images/Machines_disk_${id}_1.png`)).http).toBe(404);
    expect(onDisk(a.dataDir)).toContain(`Machines_disk_${id}_1.png`);
    expect(onDisk(b.dataDir)).toEqual([]);
    expect(await keys()).not.toContain(`images/Machines_disk_${id}_1.png`);
  }, 120_000);
});
