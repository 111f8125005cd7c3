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
import { SweepError } from '../../server/sweeps';
import { reencodeImage } from '../../server/uploads';
import { imageTag } from '../../resources/products/images';
import { fr } from '../../i18n/fr';

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
let otherId: number;
/** A tag of the demo seller's own, as the console builds it: the product name and their user id. */
const mine = (name: string) => imageTag(name, sellerId);
/** The demo seller's shop and product, and another seller's shop, of the test's own. */
const own = { shop: 0, product: 0, othersShop: 0 };
beforeAll(async () => {
  [PNG, JPEG] = await Promise.all([picture('png'), picture('jpeg')]);
  s = await startServer();
  tokens.admin = await s.login(demo.admin.email, demo.admin.password);
  tokens.seller = await s.login(demo.seller.email, demo.seller.password);
  const other = await s.userWith([1, 2]);
  tokens.other = other.token;
  otherId = other.id;
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
    const res = await upload('/upload-image', four(), { tag: mine('Blue Shoes') }, tokens.seller);
    expect(res.http).toBe(200);
    expect(res.body).toMatchObject({
      status: true, query: '4 images uploaded',
      detail: { tag: mine('Blue_Shoes'), files: [1, 2, 3, 4].map((n) => `http://console.test/api/files/images/${mine('Blue_Shoes')}_${n}.png`) },
    });
    const png = await fetch(`${s.url}/files/images/${mine('Blue_Shoes')}_1.png`);
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(png.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await sharp(Buffer.from(await png.arrayBuffer())).metadata()).toMatchObject({ format: 'png', width: 8, height: 8 });
    const jpeg = await fetch(`${s.url}/files/images/${mine('Blue_Shoes')}_2.png`);
    expect(jpeg.headers.get('content-type')).toBe('image/jpeg');
    // Written anew: the same picture, without the metadata it came with.
    expect((await sharp(JPEG).metadata()).exif).toBeDefined();
    const served = await sharp(Buffer.from(await jpeg.arrayBuffer())).metadata();
    expect(served).toMatchObject({ format: 'jpeg', width: 8, height: 8 });
    expect(served.exif).toBeUndefined();
    // The console builds the URL from the product name with spaces as '_': it reaches the same file.
    expect((await fetch(`${s.url}/files/images/${encodeURIComponent(mine('Blue Shoes'))}_3.png`)).status).toBe(200);
    expect((await fetch(`${s.url}/files/images/${mine('Blue_Shoes')}_5.png`)).status).toBe(404);
  });

  it('never lets a client name a path: traversal in the tag and the file names stays in the images folder', async () => {
    const before = stored();
    const res = await upload('/upload-image', [{ field: 'file', bytes: PNG, name: '../../../escape.png' }], { tag: mine('../../etc/passwd') }, tokens.seller);
    expect(res.body.detail.files).toEqual([`http://console.test/api/files/images/etcpasswd${sellerId}_1.png`]);
    expect(stored()).toEqual([...before, ...[`etcpasswd${sellerId}_1.png`, `etcpasswd${sellerId}_1.thumb.webp`].map((f) => path.join('files', 'images', f))].sort());
    expect((await fetch(`${s.url}/files/images/..%2F..%2Fetc%2Fpasswd${sellerId}_1.png`)).status).toBe(200); // cleaned the same way
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
    const res = await upload('/upload-image', files() as Part[], { tag: mine('Refused') }, tokens.seller);
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
    await upload('/upload-image', four(), { tag: mine('Owned') }, tokens.seller);
    const before = stored();
    const other = await upload('/upload-image', four([JPEG]), { tag: mine('Owned') }, tokens.other);
    expect(other.http).toBe(403);
    expect(other.body.query).toBe('These images belong to another seller; choose another product name');
    expect((await upload('/upload-image', four([JPEG]), { tag: mine('Owned') }, tokens.adminWithout)).http).toBe(403);
    expect(stored()).toEqual(before);
    const admin = await upload('/upload-image', four([JPEG]), { tag: mine('Owned') }, tokens.admin);
    expect(admin.body.query).toBe('1 image uploaded');
    const replaced = await fetch(`${s.url}/files/images/${mine('Owned')}_1.png`);
    expect(replaced.headers.get('content-type')).toBe('image/jpeg');
    // The seller's four images, the first replaced by the admin: all still the seller's.
    expect((await s.db.selectFrom('uploads').select('owner_id').where('tag', '=', mine('Owned')).execute()).map((r) => Number(r.owner_id))).toEqual([sellerId, sellerId, sellerId, sellerId]);
  });

  describe("a new tag is the uploader's own: the product name and their user id, as the console builds it", () => {
    const notYours = (id: number) => `Image tags are the product name followed by your user id (${id}), 100 characters at most; choose another product name`;
    const owners = (tag: string) => s.db.selectFrom('uploads').select('owner_id').where('kind', '=', 'image').where('tag', '=', tag).execute()
      .then((r) => r.map((row) => Number(row.owner_id)));

    it("refuses a seller the tag of another seller's product name, in English and French; its owner then uploads under it", async () => {
      const before = stored();
      const squat = await upload('/upload-image', four(), { tag: mine('Desk Lamp') }, tokens.other);
      expect(squat.http).toBe(403);
      expect(squat.body).toMatchObject({ status: false, query: notYours(otherId), i18n: [{ key: 'server.images_tag_not_yours', values: { id: String(otherId) } }] });
      expect(fr.server.images_tag_not_yours).toContain('%{id}');
      expect(stored()).toEqual(before);
      expect(await owners(mine('Desk_Lamp'))).toEqual([]);
      expect((await fetch(`${s.url}/files/images/${mine('Desk_Lamp')}_1.png`)).status).toBe(404);
      // A tag of no one's product name, and one with the id in the middle, are not the seller's either.
      expect((await upload('/upload-image', four(), { tag: 'Desk_Lamp' }, tokens.other)).http).toBe(403);
      expect((await upload('/upload-image', four(), { tag: `Desk${otherId}_Lamp` }, tokens.other)).http).toBe(403);
      const owner = await upload('/upload-image', four(), { tag: mine('Desk Lamp') }, tokens.seller);
      expect(owner.http).toBe(200);
      expect(await owners(mine('Desk_Lamp'))).toEqual([sellerId, sellerId, sellerId, sellerId]);
      // And the other seller's own product name is theirs.
      expect((await upload('/upload-image', four([PNG]), { tag: imageTag('Desk Lamp', otherId) }, tokens.other)).http).toBe(200);
    });

    it("takes a product name ending in digits, even where a longer user id ends the tag (user 2's 'Lamp 1' is 'Lamp_12'); the first to upload keeps it", async () => {
      // A user whose id ends with the demo seller's and is longer.
      let longer = await s.userWith([1, 2]);
      while (!String(longer.id).endsWith(String(sellerId)) || longer.id === sellerId) longer = await s.userWith([1, 2]);
      const digits = String(longer.id).slice(0, -String(sellerId).length);
      const tag = mine(`Lamp ${digits}`);
      expect(tag).toBe(imageTag('Lamp ', longer.id));
      expect((await upload('/upload-image', four([PNG]), { tag }, tokens.seller)).http).toBe(200);
      const second = await upload('/upload-image', four([PNG]), { tag }, longer.token);
      expect(second).toMatchObject({ http: 403, body: { query: 'These images belong to another seller; choose another product name' } });
      expect(await owners(tag)).toEqual([sellerId]);
    });

    it("lets an admin holding the products access tag any product's images; an admin without it only their own", async () => {
      const adminId = Number((await s.db.selectFrom('users').select('id').where('email', '=', demo.admin.email).executeTakeFirstOrThrow()).id);
      // Editing a seller's product, the console tags its images with the admin's own id.
      expect((await upload('/upload-image', four([PNG]), { tag: imageTag('Seller lamp', adminId) }, tokens.admin)).http).toBe(200);
      // Any other tag, a seller's namespace included.
      expect((await upload('/upload-image', four([PNG]), { tag: mine('Admin made') }, tokens.admin)).http).toBe(200);
      expect(await owners(mine('Admin_made'))).toEqual([adminId]);
      const without = await s.userWith(ADMIN, []);
      const refused = await upload('/upload-image', four([PNG]), { tag: mine('Not hers') }, without.token);
      expect(refused).toMatchObject({ http: 403, body: { query: notYours(without.id) } });
      expect((await upload('/upload-image', four([PNG]), { tag: imageTag('Hers', without.id) }, without.token)).http).toBe(200);
    });

    it('keeps a tag stored before the rule with its owner: still served, replaced by that owner only', async () => {
      await upload('/upload-image', four([PNG]), { tag: mine('Earlier') }, tokens.seller);
      // As a tag taken before the rule was: another seller's, in the demo seller's namespace.
      await s.db.updateTable('uploads').set({ owner_id: otherId }).where('tag', '=', mine('Earlier')).execute();
      expect((await fetch(`${s.url}/files/images/${mine('Earlier')}_1.png`)).status).toBe(200);
      const refused = await upload('/upload-image', four([JPEG]), { tag: mine('Earlier') }, tokens.seller);
      expect(refused.http).toBe(403);
      expect(refused.body.query).toBe('These images belong to another seller; choose another product name');
      expect((await upload('/upload-image', four([JPEG]), { tag: mine('Earlier') }, tokens.other)).http).toBe(200);
      expect((await fetch(`${s.url}/files/images/${mine('Earlier')}_1.png`)).headers.get('content-type')).toBe('image/jpeg');
    });
  });

  it("refuses another seller's shop, takes one's own", async () => {
    const myShop = { id: own.shop };
    const theirs = { id: own.othersShop };
    const refused = await upload('/upload-image', four(), { tag: mine('ShopCheck'), shop_id: String(theirs.id) }, tokens.seller);
    expect(refused.http).toBe(403);
    expect(refused.body.query).toBe('You can only upload images for your own shops');
    expect((await upload('/upload-image', four(), { tag: mine('ShopCheck'), shop_id: String(myShop.id) }, tokens.seller)).http).toBe(200);
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
    const res = await upload('/upload-image', [{ field: 'file', bytes: big }], { tag: mine('Thumbed') }, tokens.seller);
    expect(res.http).toBe(200);
    const thumb = await fetch(`${s.url}/files/images/${mine('Thumbed')}_1.png?size=thumb`);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/webp');
    expect(await sharp(Buffer.from(await thumb.arrayBuffer())).metadata()).toMatchObject({ format: 'webp', width: 256, height: 171 });
    const whole = await fetch(`${s.url}/files/images/${mine('Thumbed')}_1.png`);
    expect(await sharp(Buffer.from(await whole.arrayBuffer())).metadata()).toMatchObject({ format: 'png', width: 600, height: 400 });
  });

  it('makes the thumbnail of an image stored without one (from before thumbnails) when it is first asked for', async () => {
    await upload('/upload-image', [{ field: 'file', bytes: await picture('png', 300, 600) }], { tag: mine('Older') }, tokens.seller);
    await s.db.updateTable('uploads').set({ thumb_name: null, thumb_size: null }).where('tag', '=', mine('Older')).execute();
    fs.rmSync(path.join(s.dataDir, 'files', 'images', `${mine('Older')}_1.thumb.webp`));
    const thumb = await fetch(`${s.url}/files/images/${mine('Older')}_1.png?size=thumb`);
    expect(thumb.headers.get('content-type')).toBe('image/webp');
    expect(await sharp(Buffer.from(await thumb.arrayBuffer())).metadata()).toMatchObject({ width: 128, height: 256 });
    expect(await s.db.selectFrom('uploads').select('thumb_name').where('tag', '=', mine('Older')).executeTakeFirst()).toEqual({ thumb_name: `${mine('Older')}_1.thumb.webp` });
    expect(fs.existsSync(path.join(s.dataDir, 'files', 'images', `${mine('Older')}_1.thumb.webp`))).toBe(true);
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
      expect((await send(`First${seller.id}`, seller.token)).http).toBe(200);
      const second = await send(`Second${seller.id}`, seller.token);
      expect(second.http).toBe(http);
      if (http === 413) {
        expect(second.body).toMatchObject({ status: false });
        expect(second.body.query).toMatch(/^Not enough storage left: these files take .* of your .* are free; remove files you no longer use first$/);
        // Replacing one's own picture frees what it took: still possible at the limit.
        expect((await send(`First${seller.id}`, seller.token)).http).toBe(200);
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
      const answers = await Promise.all(['Race1', 'Race2', 'Race3'].map((tag) => send(`${tag}_${seller.id}`, seller.token)));
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
      for (let n = 1; n <= 3; n++) expect((await send(`Rated${n}_${seller.id}`, seller.token)).http).toBe(200);
      const fourth = await send(`Rated4_${seller.id}`, seller.token);
      expect(fourth.http).toBe(429);
      expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(fourth.body.query).toMatch(/^Too many attempts; please wait \d+ seconds and try again$/);
      expect(await r.db.selectFrom('uploads').select('tag').where('tag', '=', `Rated4_${seller.id}`).execute()).toEqual([]);
      at += 60_000;
      expect((await send(`Rated4_${seller.id}`, seller.token)).http).toBe(200);
    } finally {
      await r.close();
    }
  });
});

describe('sweeping unattached files', () => {
  it('removes an upload no record names once its grace period is over, and keeps one a record names', async () => {
    const product = { id: own.product };
    const used = await upload('/upload-image', four([PNG]), { tag: mine('Swept_used') }, tokens.seller);
    await upload('/upload-image', four([PNG]), { tag: mine('Swept_unused') }, tokens.seller);
    const saved = await s.post('/product', { id: product.id, image: [{ id: 1, image: used.body.detail.files[0] }] }, tokens.seller);
    expect(saved.http).toBe(200);
    const created = (tag: string) => s.db.selectFrom('uploads').select('created_at').where('tag', '=', tag).executeTakeFirstOrThrow().then((r) => Date.parse(String(r.created_at)));
    const grace = DEFAULT_UPLOAD_POLICY.graceMs;
    const store = new DiskStore(s.dataDir);
    const exists = (name: string) => fs.existsSync(path.join(s.dataDir, 'files', 'images', name));

    // At the end of the grace period, nothing goes.
    await sweepUnattached(s.db, store, (await created(mine('Swept_unused'))) + grace, grace);
    expect(exists(`${mine('Swept_unused')}_1.png`)).toBe(true);
    // A millisecond later, the unnamed upload and its thumbnail go; the named one stays.
    const later = Math.max(await created(mine('Swept_unused')), await created(mine('Swept_used'))) + grace + 1;
    expect(await sweepUnattached(s.db, store, later, grace)).toBeGreaterThanOrEqual(1);
    expect(exists(`${mine('Swept_unused')}_1.png`)).toBe(false);
    expect(exists(`${mine('Swept_unused')}_1.thumb.webp`)).toBe(false);
    expect((await fetch(`${s.url}/files/images/${mine('Swept_unused')}_1.png`)).status).toBe(404);
    expect(exists(`${mine('Swept_used')}_1.png`)).toBe(true);
    expect((await fetch(`${s.url}/files/images/${mine('Swept_used')}_1.png`)).status).toBe(200);
    // Replacing a named picture keeps it named.
    await upload('/upload-image', four([JPEG]), { tag: mine('Swept_used') }, tokens.seller);
    await sweepUnattached(s.db, store, later + grace, grace);
    expect((await fetch(`${s.url}/files/images/${mine('Swept_used')}_1.png`)).headers.get('content-type')).toBe('image/jpeg');
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

  it('sweeps the uploads after one the store does not remove, reports that one with its keys, and sweeps it once the store does', async () => {
    await upload('/upload-image', four([PNG]), { tag: mine('Swept_refused') }, tokens.seller);
    await upload('/upload-image', four([PNG]), { tag: mine('Swept_behind') }, tokens.seller);
    const row = (tag: string) => s.db.selectFrom('uploads').select(['id', 'file_name', 'thumb_name', 'created_at']).where('tag', '=', tag).executeTakeFirst();
    const refused = (await row(mine('Swept_refused')))!;
    const behind = (await row(mine('Swept_behind')))!;
    expect(String(refused.created_at) <= String(behind.created_at) && Number(refused.id) < Number(behind.id)).toBe(true);
    const exists = (name: unknown) => fs.existsSync(path.join(s.dataDir, 'files', 'images', String(name)));
    /** The disk, but for one object it does not remove (as a bucket refusing one key). */
    class RefusingStore extends DiskStore {
      override async remove(kind: 'images' | 'documents', names: readonly string[]) {
        if (names.includes(String(refused.file_name))) throw new Error('Access Denied');
        return super.remove(kind, names);
      }
    }
    const grace = DEFAULT_UPLOAD_POLICY.graceMs;
    const later = Date.parse(String(behind.created_at)) + grace + 1;
    const reports: unknown[] = [];
    expect(await sweepUnattached(s.db, new RefusingStore(s.dataDir), later, grace, { report: (error) => reports.push(error) })).toBeGreaterThanOrEqual(1);
    expect([await row(mine('Swept_behind')), exists(behind.file_name), exists(behind.thumb_name)]).toEqual([undefined, false, false]);
    expect([await row(mine('Swept_refused')), exists(refused.file_name)]).toEqual([refused, true]);
    expect(reports).toHaveLength(1);
    expect(reports[0]).toBeInstanceOf(SweepError);
    expect(reports[0]).toMatchObject({
      recordId: Number(refused.id),
      message: `Sweeping the upload ${Number(refused.id)} failed: the file store did not remove images/${String(refused.file_name)}, images/${String(refused.thumb_name)}: Access Denied`,
    });
    // Without a report, the failure is thrown; the next run with a store that removes it sweeps it.
    await expect(sweepUnattached(s.db, new RefusingStore(s.dataDir), later, grace)).rejects.toThrow(SweepError);
    expect(await sweepUnattached(s.db, new DiskStore(s.dataDir), later, grace)).toBe(1);
    expect([await row(mine('Swept_refused')), exists(refused.file_name), exists(refused.thumb_name)]).toEqual([undefined, false, false]);
  });
});

describe('POST /upload/status', () => {
  it("clears a tag's images for their owner, not for another seller", async () => {
    await upload('/upload-image', four(), { tag: mine('ToClear') }, tokens.seller);
    const other = await s.post('/upload/status', { tyype: 'clear', tag: mine('ToClear') }, tokens.other);
    expect(other.http).toBe(403);
    expect((await s.post('/upload/status', { tyype: 'clear', tag: mine('ToClear') })).http).toBe(401);
    const res = await s.post('/upload/status', { tyype: 'clear', tag: mine('ToClear') }, tokens.seller);
    expect(res.body).toMatchObject({ status: true, query: '4 images removed' });
    expect(stored().filter((f) => f.includes(mine('ToClear')))).toEqual([]);
    expect((await fetch(`${s.url}/files/images/${mine('ToClear')}_1.png`)).status).toBe(404);
    expect((await s.post('/upload/status', { tag: mine('ToClear') }, tokens.seller)).http).toBe(400);
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
