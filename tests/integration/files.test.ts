/**
 * Files over HTTP (SPEC §7.5): image and document uploads streamed to disk, recognised by their
 * bytes, decoded and written anew with a thumbnail, owned by their uploader, within a quota and a
 * rate; downloads with the right headers; refusals leave nothing behind; unattached files swept.
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, demo, ADMIN, newCategory, productBody, shopBody, type TestServer } from './harness';
import { zip } from '../fixtures/zip';
import { DEFAULT_LIMITS } from '../../server/throttle';
import { DEFAULT_UPLOAD_POLICY, sweepUnattached } from '../../server/attachments';
import { DiskStore } from '../../server/storage';
import { reencodeImage } from '../../server/uploads';

/** A real picture of this size; a JPEG carries EXIF metadata (a copyright line, as a camera writes). */
const picture = (type: 'png' | 'jpeg', width = 8, height = 8) => {
  const image = sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } });
  return (type === 'png' ? image.png() : image.jpeg().withExif({ IFD0: { Copyright: 'Secret Camera Owner' } })).toBuffer();
};
let PNG: Buffer;
let JPEG: Buffer;

const DOCX = zip({ '[Content_Types].xml': '<Types/>', 'word/document.xml': '<w:document/>' });

let s: TestServer;
const tokens: Record<string, string> = {};
let sellerId: number;
/** The demo seller's shop and product, and another seller's shop, of the test's own. */
const own = { shop: 0, product: 0, othersShop: 0 };
beforeAll(async () => {
  [PNG, JPEG] = await Promise.all([picture('png'), picture('jpeg')]);
  s = await startServer();
  tokens.admin = await s.login(demo.admin.email, demo.admin.password);
  tokens.seller = await s.login(demo.seller.email, demo.seller.password);
  tokens.other = (await s.userWith([1, 2])).token;
  tokens.buyer = await s.login(demo.buyer.email, demo.buyer.password);
  tokens.adminWithout = (await s.userWith(ADMIN, [])).token;
  sellerId = Number((await s.db.selectFrom('users').select('id').where('email', '=', demo.seller.email).executeTakeFirstOrThrow()).id);
  own.shop = (await s.post('/shop', shopBody('Pictured shop'), tokens.seller)).body.detail.id;
  own.product = (await s.post('/product', productBody(own.shop, await newCategory(s, tokens.admin, 'Pictured goods'), 'Pictured product'), tokens.seller)).body.detail.id;
  own.othersShop = (await s.post('/shop', shopBody('Not pictured shop'), tokens.other)).body.detail.id;
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
    expect(await sharp(Buffer.from(await png.arrayBuffer())).metadata()).toMatchObject({ format: 'png', width: 8, height: 8 });
    const jpeg = await fetch(`${s.url}/files/images/Blue_Shoes2_2.png`);
    expect(jpeg.headers.get('content-type')).toBe('image/jpeg');
    // Written anew: the same picture, without the metadata it came with.
    expect((await sharp(JPEG).metadata()).exif).toBeDefined();
    const served = await sharp(Buffer.from(await jpeg.arrayBuffer())).metadata();
    expect(served).toMatchObject({ format: 'jpeg', width: 8, height: 8 });
    expect(served.exif).toBeUndefined();
    // The console builds the URL from the product name with spaces as '_': it reaches the same file.
    expect((await fetch(`${s.url}/files/images/${encodeURIComponent("Blue_Shoes2")}_3.png`)).status).toBe(200);
    expect((await fetch(`${s.url}/files/images/Blue_Shoes2_5.png`)).status).toBe(404);
  });

  it('never lets a client name a path: traversal in the tag and the file names stays in the images folder', async () => {
    const before = stored();
    const res = await upload('/upload-image', [{ field: 'file', bytes: PNG, name: '../../../escape.png' }], { tag: '../../etc/passwd' }, tokens.seller);
    expect(res.body.detail.files).toEqual(['http://console.test/api/files/images/etcpasswd_1.png']);
    expect(stored()).toEqual([...before, ...['etcpasswd_1.png', 'etcpasswd_1.thumb.webp'].map((f) => path.join('files', 'images', f))].sort());
    expect((await fetch(`${s.url}/files/images/..%2F..%2Fetc%2Fpasswd_1.png`)).status).toBe(200); // cleaned the same way
    expect((await fetch(`${s.url}/download/..%2Ftest.sqlite`, { headers: { Authorization: `Bearer ${tokens.admin}` } })).status).toBe(404);
  });

  it.each([
    ['a file over 10 MB', () => [{ field: 'file', bytes: PNG }, { field: 'file1', bytes: Buffer.concat([PNG, Buffer.alloc(10 * 1024 * 1024)]) }], 413, 'Each file must be at most 10 MB'],
    ['a text file named .png', () => [{ field: 'file', bytes: PNG }, { field: 'file1', bytes: Buffer.from('not an image at all'), name: 'x.png' }], 400, 'Image 2 is not a PNG or JPEG image'],
    ['random bytes behind a PNG signature', () => [{ field: 'file', bytes: PNG }, { field: 'file1', bytes: Buffer.concat([PNG.subarray(0, 8), Buffer.alloc(64 * 1024, 7)]) }], 400, 'Image 2 could not be read: it is not a whole PNG or JPEG picture'],
    ['a cut-off JPEG', () => [{ field: 'file', bytes: JPEG.subarray(0, JPEG.length - 40) }], 400, 'Image 1 could not be read: it is not a whole PNG or JPEG picture'],
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
    // The seller's four images, the first replaced by the admin: all still the seller's.
    expect((await s.db.selectFrom('uploads').select('owner_id').where('tag', '=', 'Owned7').execute()).map((r) => Number(r.owner_id))).toEqual([sellerId, sellerId, sellerId, sellerId]);
  });

  it("refuses another seller's shop, takes one's own", async () => {
    const mine = { id: own.shop };
    const theirs = { id: own.othersShop };
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

describe('thumbnails', () => {
  it('keeps a small WebP beside each image, served with ?size=thumb; the image itself stays whole', async () => {
    const big = await picture('png', 600, 400);
    const res = await upload('/upload-image', [{ field: 'file', bytes: big }], { tag: 'Thumbed1' }, tokens.seller);
    expect(res.http).toBe(200);
    const thumb = await fetch(`${s.url}/files/images/Thumbed1_1.png?size=thumb`);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/webp');
    expect(await sharp(Buffer.from(await thumb.arrayBuffer())).metadata()).toMatchObject({ format: 'webp', width: 256, height: 171 });
    const whole = await fetch(`${s.url}/files/images/Thumbed1_1.png`);
    expect(await sharp(Buffer.from(await whole.arrayBuffer())).metadata()).toMatchObject({ format: 'png', width: 600, height: 400 });
  });

  it('makes the thumbnail of an image stored without one (from before thumbnails) when it is first asked for', async () => {
    await upload('/upload-image', [{ field: 'file', bytes: await picture('png', 300, 600) }], { tag: 'Older1' }, tokens.seller);
    await s.db.updateTable('uploads').set({ thumb_name: null, thumb_size: null }).where('tag', '=', 'Older1').execute();
    fs.rmSync(path.join(s.dataDir, 'files', 'images', 'Older1_1.thumb.webp'));
    const thumb = await fetch(`${s.url}/files/images/Older1_1.png?size=thumb`);
    expect(thumb.headers.get('content-type')).toBe('image/webp');
    expect(await sharp(Buffer.from(await thumb.arrayBuffer())).metadata()).toMatchObject({ width: 128, height: 256 });
    expect(await s.db.selectFrom('uploads').select('thumb_name').where('tag', '=', 'Older1').executeTakeFirst()).toEqual({ thumb_name: 'Older1_1.thumb.webp' });
    expect(fs.existsSync(path.join(s.dataDir, 'files', 'images', 'Older1_1.thumb.webp'))).toBe(true);
  });
});

describe('storage quota and upload rate', () => {
  /** A server without demo data, a seller and an admin on it. */
  async function server(opts: Parameters<typeof startServer>[0]) {
    const server = await startServer({ demo: false, ...opts });
    const seller = await server.userWith([1, 2]);
    const admin = await server.userWith(ADMIN, ['products']);
    const send = (tag: string, token: string, bytes = PNG) => {
      const form = new FormData();
      form.append('tag', tag);
      form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'a.png');
      return fetch(`${server.url}/upload-image`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form })
        .then(async (r) => ({ http: r.status, body: await r.json(), headers: r.headers }));
    };
    return { server, seller, admin, send };
  }

  /** What one stored upload of this picture takes: the picture written anew and its thumbnail. */
  async function storedSize(bytes: Buffer) {
    const dir = fs.mkdtempSync(path.join(s.dataDir, 'measure-'));
    fs.writeFileSync(path.join(dir, 'in'), bytes);
    const out = (await reencodeImage(path.join(dir, 'in'), 'image/png'))!;
    fs.rmSync(dir, { recursive: true });
    return out.size + out.thumbSize;
  }

  it.each([
    ['exactly at the quota', 0, 200],
    ['one byte over it', -1, 413],
  ])('a seller storing two pictures %s', async (_what, slack, http) => {
    const one = await storedSize(PNG);
    const { server: q, seller, admin, send } = await server({ uploads: { quotaBytes: 2 * one + slack } });
    try {
      expect((await send('First1', seller.token)).http).toBe(200);
      const second = await send('Second1', seller.token);
      expect(second.http).toBe(http);
      if (http === 413) {
        expect(second.body).toMatchObject({ status: false });
        expect(second.body.query).toMatch(/^Not enough storage left: these files take .* of your .* are free; remove files you no longer use first$/);
        // Replacing one's own picture frees what it took: still possible at the limit.
        expect((await send('First1', seller.token)).http).toBe(200);
        // Admins are exempt.
        expect((await send('ByAdmin', admin.token)).http).toBe(200);
      }
    } finally {
      await q.close();
    }
  });

  it('two uploads at once with room for one: one is stored, the other refused', async () => {
    const one = await storedSize(PNG);
    const { server: q, seller, send } = await server({ uploads: { quotaBytes: one } });
    try {
      const answers = await Promise.all(['Race1', 'Race2', 'Race3'].map((tag) => send(tag, seller.token)));
      expect(answers.map((a) => a.http).sort()).toEqual([200, 413, 413]);
      expect(await q.db.selectFrom('uploads').select('tag').where('owner_id', '=', seller.id).execute()).toHaveLength(1);
    } finally {
      await q.close();
    }
  });

  it('takes 3 uploads a minute per user (as configured), refuses the 4th with 429 and Retry-After, keeping nothing of it', async () => {
    let at = Date.UTC(2030, 0, 1);
    const { server: r, seller, send } = await server({ limits: { ...DEFAULT_LIMITS, upload: { max: 3, windowMs: 60_000 } }, clock: () => at });
    try {
      for (let n = 1; n <= 3; n++) expect((await send(`Rated${n}`, seller.token)).http).toBe(200);
      const fourth = await send('Rated4', seller.token);
      expect(fourth.http).toBe(429);
      expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(fourth.body.query).toMatch(/^Too many attempts; please wait \d+ seconds and try again$/);
      expect(await r.db.selectFrom('uploads').select('tag').where('tag', '=', 'Rated4').execute()).toEqual([]);
      at += 60_000;
      expect((await send('Rated4', seller.token)).http).toBe(200);
    } finally {
      await r.close();
    }
  });
});

describe('sweeping unattached files', () => {
  it('removes an upload no record names once its grace period is over, and keeps one a record names', async () => {
    const mine = { id: own.product };
    const used = await upload('/upload-image', four([PNG]), { tag: 'Swept_used' }, tokens.seller);
    await upload('/upload-image', four([PNG]), { tag: 'Swept_unused' }, tokens.seller);
    const saved = await s.post('/product', { id: mine.id, image: [{ id: 1, image: used.body.detail.files[0] }] }, tokens.seller);
    expect(saved.http).toBe(200);
    const created = (tag: string) => s.db.selectFrom('uploads').select('created_at').where('tag', '=', tag).executeTakeFirstOrThrow().then((r) => Date.parse(String(r.created_at)));
    const grace = DEFAULT_UPLOAD_POLICY.graceMs;
    const store = new DiskStore(s.dataDir);
    const exists = (name: string) => fs.existsSync(path.join(s.dataDir, 'files', 'images', name));

    // At the end of the grace period, nothing goes.
    await sweepUnattached(s.db, store, (await created('Swept_unused')) + grace, grace);
    expect(exists('Swept_unused_1.png')).toBe(true);
    // A millisecond later, the unnamed upload and its thumbnail go; the named one stays.
    const later = Math.max(await created('Swept_unused'), await created('Swept_used')) + grace + 1;
    expect(await sweepUnattached(s.db, store, later, grace)).toBeGreaterThanOrEqual(1);
    expect(exists('Swept_unused_1.png')).toBe(false);
    expect(exists('Swept_unused_1.thumb.webp')).toBe(false);
    expect((await fetch(`${s.url}/files/images/Swept_unused_1.png`)).status).toBe(404);
    expect(exists('Swept_used_1.png')).toBe(true);
    expect((await fetch(`${s.url}/files/images/Swept_used_1.png`)).status).toBe(200);
    // Replacing a named picture keeps it named.
    await upload('/upload-image', four([JPEG]), { tag: 'Swept_used' }, tokens.seller);
    await sweepUnattached(s.db, store, later + grace, grace);
    expect((await fetch(`${s.url}/files/images/Swept_used_1.png`)).headers.get('content-type')).toBe('image/jpeg');
  });

  it("keeps a CV an application names, sweeps one none does", async () => {
    const applicant = await s.userWith([1]);
    const other = await s.userWith([1]);
    const cv = await upload('/upload-docx', [{ field: 'file', bytes: DOCX }], {}, applicant.token);
    await upload('/upload-docx', [{ field: 'file', bytes: DOCX }], {}, other.token);
    expect((await s.post('/applicant', { title: 'Driver', cv: cv.body.detail.files[0], country: 'Ghana' }, applicant.token)).http).toBe(200);
    const grace = DEFAULT_UPLOAD_POLICY.graceMs;
    await sweepUnattached(s.db, new DiskStore(s.dataDir), Date.now() + grace + 1, grace);
    const left = (id: number) => s.db.selectFrom('uploads').select('file_name').where('owner_id', '=', id).execute();
    expect(await left(applicant.id)).toEqual([{ file_name: `cv_${applicant.id}.docx` }]);
    expect(await left(other.id)).toEqual([]);
    expect(fs.existsSync(path.join(s.dataDir, 'files', 'documents', `cv_${other.id}.docx`))).toBe(false);
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

  it('keeps one CV per user: a new upload replaces it and a tag is ignored; an admin names theirs', async () => {
    const user = await s.userWith([1]);
    for (const tag of ['mine', 'another', 'third']) {
      const res = await upload('/upload-docx', [{ field: 'file', bytes: DOCX }], { tag }, user.token);
      expect(res.body.detail.files).toEqual([`http://console.test/api/download/cv_${user.id}.docx`]);
    }
    expect(await s.db.selectFrom('uploads').select('file_name').where('owner_id', '=', user.id).execute()).toEqual([{ file_name: `cv_${user.id}.docx` }]);
    const admin = await s.userWith(ADMIN, ['job-applicants']);
    const named = await upload('/upload-docx', [{ field: 'file', bytes: DOCX }], { tag: 'policy' }, admin.token);
    expect(named.body.detail.files).toEqual([`http://console.test/api/download/policy_${admin.id}.docx`]);
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

  it('a GET, which takes no body, is answered whatever content type it names (the API document lists no 415 for it)', async () => {
    const res = await fetch(`${s.url}/health`, { headers: { 'Content-Type': 'multipart/form-data; boundary=x' } });
    expect(res.status).toBe(200);
  });

  it('the users call takes form fields but no files', async () => {
    const form = new FormData();
    form.append('page', '1');
    form.append('file', new Blob([new Uint8Array(PNG)]), 'x.png');
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
