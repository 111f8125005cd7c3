/**
 * Files over HTTP (SPEC §7.5): image and document uploads streamed to disk, recognised by their
 * bytes, owned by their uploader; downloads with the right headers; refusals leave nothing behind.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, demo, ADMIN, type TestServer } from './harness';
import { zip } from '../fixtures/zip';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('png body')]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('jpeg body')]);

const DOCX = zip({ '[Content_Types].xml': '<Types/>', 'word/document.xml': '<w:document/>' });

let s: TestServer;
const tokens: Record<string, string> = {};
let sellerId: number;
beforeAll(async () => {
  s = await startServer();
  tokens.admin = await s.login(demo.admin.email, demo.admin.password);
  tokens.seller = await s.login(demo.seller.email, demo.seller.password);
  tokens.other = await s.login('olu@example.com', 'olu-seller-1');
  tokens.buyer = await s.login(demo.buyer.email, demo.buyer.password);
  tokens.adminWithout = (await s.userWith(ADMIN, [])).token;
  sellerId = (await s.post('/users', { id: 2 }, tokens.seller)).body.detail.id;
});
afterAll(() => s.close());

interface Part { field: string; bytes: Buffer; name?: string; type?: string }
async function upload(p: string, files: Part[], fields: Record<string, string>, token?: string) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files) form.append(f.field, new Blob([new Uint8Array(f.bytes)], { type: f.type ?? 'image/png' }), f.name ?? 'photo.png');
  const res = await fetch(s.url + p, { method: 'POST', headers: token ? { Authorization: `Bearer ${token}` } : {}, body: form });
  return { http: res.status, body: await res.json(), headers: res.headers };
}
const four = (bytes: Buffer[] = [PNG, JPEG, PNG, PNG]) => bytes.map((b, i) => ({ field: ['file', 'file1', 'file2', 'file3'][i], bytes: b }));
/** Every file the server keeps, relative to its data folder. */
const stored = () =>
  fs.readdirSync(path.join(s.dataDir, 'files'), { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.relative(s.dataDir, path.join(d.parentPath, d.name)))
    .sort();
const rows = () => s.db.selectFrom('uploads').selectAll().orderBy('id').execute();

describe('POST /upload-image', () => {
  it('stores 4 images under names built from the tag, answers their URLs, serves them by their bytes', async () => {
    const res = await upload('/upload-image', four(), { tag: 'Blue Shoes2' }, tokens.seller);
    expect(res.http).toBe(200);
    expect(res.body).toMatchObject({
      status: true, query: '4 images uploaded',
      detail: { tag: 'Blue_Shoes2', files: [1, 2, 3, 4].map((n) => `http://console.test/api/files/images/Blue_Shoes2_${n}.png`) },
    });
    const png = await fetch(`${s.url}/files/images/Blue_Shoes2_1.png`);
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(png.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await png.arrayBuffer())).toEqual(PNG);
    const jpeg = await fetch(`${s.url}/files/images/Blue_Shoes2_2.png`);
    expect(jpeg.headers.get('content-type')).toBe('image/jpeg');
    // The console builds the URL from the product name with spaces as '_': it reaches the same file.
    expect((await fetch(`${s.url}/files/images/${encodeURIComponent("Blue_Shoes2")}_3.png`)).status).toBe(200);
    expect((await fetch(`${s.url}/files/images/Blue_Shoes2_5.png`)).status).toBe(404);
  });

  it('never lets a client name a path: traversal in the tag and the file names stays in the images folder', async () => {
    const before = stored();
    const res = await upload('/upload-image', [{ field: 'file', bytes: PNG, name: '../../../escape.png' }], { tag: '../../etc/passwd' }, tokens.seller);
    expect(res.body.detail.files).toEqual(['http://console.test/api/files/images/etcpasswd_1.png']);
    expect(stored()).toEqual([...before, path.join('files', 'images', 'etcpasswd_1.png')].sort());
    expect((await fetch(`${s.url}/files/images/..%2F..%2Fetc%2Fpasswd_1.png`)).status).toBe(200); // cleaned the same way
    expect((await fetch(`${s.url}/download/..%2Ftest.sqlite`, { headers: { Authorization: `Bearer ${tokens.admin}` } })).status).toBe(404);
  });

  it.each([
    ['a file over 10 MB', () => [{ field: 'file', bytes: PNG }, { field: 'file1', bytes: Buffer.concat([PNG, Buffer.alloc(10 * 1024 * 1024)]) }], 413, 'Each file must be at most 10 MB'],
    ['a text file named .png', () => [{ field: 'file', bytes: PNG }, { field: 'file1', bytes: Buffer.from('not an image at all'), name: 'x.png' }], 400, 'Image 2 is not a PNG or JPEG image'],
    ['five files', () => [...four(), { field: 'file3', bytes: PNG }], 413, 'At most 4 images can be uploaded at once'],
    ['an unknown field', () => [{ field: 'file9', bytes: PNG }], 400, 'Send the files in the fields file, file1, file2, file3, one file each'],
    ['no file', () => [], 400, 'Choose up to 4 images to upload (file, file1, file2, file3)'],
  ] as const)('refuses %s with a readable query and leaves nothing behind', async (_what, files, http, query) => {
    const before = stored();
    const rowsBefore = await rows();
    const res = await upload('/upload-image', files() as Part[], { tag: 'Refused1' }, tokens.seller);
    expect(res.http).toBe(http);
    expect(res.body).toMatchObject({ status: false, query });
    expect(stored()).toEqual(before);
    expect(await rows()).toEqual(rowsBefore);
  });

  it('refuses a missing tag', async () => {
    const res = await upload('/upload-image', four(), { tag: '  ***  ' }, tokens.seller);
    expect(res.http).toBe(400);
    expect(res.body.query).toMatch(/^tag is required/);
  });

  it("lets only the tag's owner, or an admin holding the products access, replace its images", async () => {
    await upload('/upload-image', four(), { tag: 'Owned7' }, tokens.seller);
    const before = stored();
    const other = await upload('/upload-image', four([JPEG]), { tag: 'Owned7' }, tokens.other);
    expect(other.http).toBe(403);
    expect(other.body.query).toBe('These images belong to another seller; choose another product name');
    expect((await upload('/upload-image', four([JPEG]), { tag: 'Owned7' }, tokens.adminWithout)).http).toBe(403);
    expect(stored()).toEqual(before);
    const admin = await upload('/upload-image', four([JPEG]), { tag: 'Owned7' }, tokens.admin);
    expect(admin.body.query).toBe('1 image uploaded');
    const replaced = await fetch(`${s.url}/files/images/Owned7_1.png`);
    expect(replaced.headers.get('content-type')).toBe('image/jpeg');
    expect((await s.db.selectFrom('uploads').select('owner_id').where('tag', '=', 'Owned7').execute()).every((r) => Number(r.owner_id) === sellerId)).toBe(true);
  });

  it("refuses another seller's shop, takes one's own", async () => {
    const mine = await s.db.selectFrom('shops').select('id').where('owner_id', '=', sellerId).executeTakeFirstOrThrow();
    const theirs = await s.db.selectFrom('shops').select('id').where('owner_id', '!=', sellerId).executeTakeFirstOrThrow();
    const refused = await upload('/upload-image', four(), { tag: 'ShopCheck', shop_id: String(theirs.id) }, tokens.seller);
    expect(refused.http).toBe(403);
    expect(refused.body.query).toBe('You can only upload images for your own shops');
    expect((await upload('/upload-image', four(), { tag: 'ShopCheck', shop_id: String(mine.id) }, tokens.seller)).http).toBe(200);
  });

  it.each([
    ['anonymous', undefined, 401],
    ['buyer', 'buyer', 403],
  ])('refuses %s', async (_who, token, http) => {
    const before = stored();
    const res = await upload('/upload-image', four(), { tag: 'Nobody' }, token ? tokens[token] : undefined);
    expect(res.http).toBe(http);
    expect(res.body.status).toBe(false);
    expect(stored()).toEqual(before);
  });
});

describe('POST /upload/status', () => {
  it("clears a tag's images for their owner, not for another seller", async () => {
    await upload('/upload-image', four(), { tag: 'ToClear' }, tokens.seller);
    const other = await s.post('/upload/status', { tyype: 'clear', tag: 'ToClear' }, tokens.other);
    expect(other.http).toBe(403);
    expect((await s.post('/upload/status', { tyype: 'clear', tag: 'ToClear' })).http).toBe(401);
    const res = await s.post('/upload/status', { tyype: 'clear', tag: 'ToClear' }, tokens.seller);
    expect(res.body).toMatchObject({ status: true, query: '4 images removed' });
    expect(stored().filter((f) => f.includes('ToClear'))).toEqual([]);
    expect((await fetch(`${s.url}/files/images/ToClear_1.png`)).status).toBe(404);
    expect((await s.post('/upload/status', { tag: 'ToClear' }, tokens.seller)).http).toBe(400);
  });
});

describe('POST /upload-docx and GET /download/{name}', () => {
  it('stores a Word document for any signed-in user and serves it as an attachment to its uploader and applicant admins', async () => {
    const res = await upload('/upload-docx', [{ field: 'file', bytes: DOCX, name: 'my cv.docx', type: 'application/octet-stream' }], {}, tokens.buyer);
    expect(res.http).toBe(200);
    const url: string = res.body.detail.files[0];
    expect(res.body.query).toBe('Document uploaded');
    expect(url).toMatch(/^http:\/\/console\.test\/api\/download\/cv_\d+\.docx$/);
    const name = url.split('/').pop()!;
    const get = (token?: string) => fetch(`${s.url}/download/${name}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
    const own = await get(tokens.buyer);
    expect(own.status).toBe(200);
    expect(own.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(own.headers.get('content-disposition')).toBe(`attachment; filename="${name}"`);
    expect(own.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await own.arrayBuffer())).toEqual(DOCX);
    expect((await get(tokens.admin)).status).toBe(200);
    expect((await get(tokens.seller)).status).toBe(403);
    expect((await get(tokens.adminWithout)).status).toBe(403);
    expect((await get()).status).toBe(401);
  });

  it.each([
    ['a zip without a document', zip({ 'readme.txt': 'hello' })],
    ['an image', PNG],
    ['a truncated zip', DOCX.subarray(0, 40)],
  ])('refuses %s and keeps nothing', async (_what, bytes) => {
    const before = stored();
    const res = await upload('/upload-docx', [{ field: 'file', bytes, name: 'cv.docx' }], {}, tokens.buyer);
    expect(res.http).toBe(400);
    expect(res.body.query).toBe('The file is not a Word document (.docx)');
    expect(stored()).toEqual(before);
  });

  it('refuses two documents and anonymous callers', async () => {
    const two = await upload('/upload-docx', [{ field: 'file', bytes: DOCX }, { field: 'file', bytes: DOCX }], {}, tokens.buyer);
    expect(two.http).toBe(413);
    expect(two.body.query).toBe('Send one document at a time');
    expect((await upload('/upload-docx', [{ field: 'file', bytes: DOCX }], {})).http).toBe(401);
  });
});

describe('multipart only where files are taken', () => {
  it.each(['/chat', '/shops', '/user/terminal', '/search-dive'])('%s refuses a multipart body with 415 before reading it', async (p) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(1024 * 1024)]), 'big.bin');
    const res = await fetch(s.url + p, { method: 'POST', body: form });
    expect(res.status).toBe(415);
    expect((await res.json()).query).toBe('This call takes a JSON body; only the users call and the uploads take a multipart form');
  });

  it('the users call takes form fields but no files', async () => {
    const form = new FormData();
    form.append('page', '1');
    form.append('file', new Blob([PNG]), 'x.png');
    const res = await fetch(`${s.url}/users`, { method: 'POST', headers: { Authorization: `Bearer ${tokens.admin}` }, body: form });
    expect(res.status).toBe(413);
  });

  it('an upload sent as JSON answers 415', async () => {
    const res = await s.post('/upload-image', { tag: 'x' }, tokens.seller);
    expect(res.http).toBe(415);
    expect(res.body.query).toBe('Send the files as a multipart form');
  });
});

describe('in strict contract mode', () => {
  it('the file endpoints exist', async () => {
    const strict = await startServer({ strict: true });
    try {
      expect((await strict.post('/upload/status', { tyype: 'clear', tag: 'x' })).http).toBe(401);
      const image = await fetch(`${strict.url}/files/images/none_1.png`);
      expect(image.status).toBe(404);
      expect((await image.json()).query).toBe('There is no such image');
      expect((await fetch(`${strict.url}/download/none.docx`)).status).toBe(401);
      const form = new FormData();
      form.append('tag', 'x');
      expect((await fetch(`${strict.url}/upload-image`, { method: 'POST', body: form })).status).toBe(401);
    } finally {
      await strict.close();
    }
  });
});
