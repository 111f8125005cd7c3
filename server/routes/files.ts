/**
 * Files (SPEC §7.5): product images and Word documents (CVs). Uploads are multipart and streamed
 * to disk under DATA_DIR, then placed in the file store (server/storage.ts: the local folder or a
 * bucket); stored names are built only from the cleaned tag and the index (nothing a client sends
 * becomes a path); a table records each file's owner. Contract endpoints: they
 * exist in strict mode too.
 *
 * - POST /upload-image: fields file, file1, file2, file3 (images 1 to 4, PNG or JPEG by their
 *   bytes, 10 MB each, decoded and written anew with a thumbnail) and tag; optional shop_id.
 *   Sellers and admins; a seller's new tag ends with their user id (checkNamespace).
 * - POST /upload-docx: one .docx in `file` (a zip holding word/document.xml): one CV per user, a new
 *   one replaces it; only admins choose a tag. Any signed-in user.
 *
 * Uploads count against the uploader's storage quota (admins are exempt) and a rate per user; a
 * refused upload answers before its body is read (and the connection closes, server/connections.ts).
 * - POST /upload/status {tyype: 'clear', tag}: removes the tag's images (their owner, or an admin
 *   holding the products access).
 * - GET /files/images/{tag}_{n}.png: public, served with the type of the stored bytes;
 *   `?size=thumb` (an extension, ignored in strict mode) answers its thumbnail.
 * - GET /download/{name}.docx: the uploader or an admin holding the job-applicants access; as an attachment.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bodyOf, type AppContext } from '../context';
import type { Caller } from '../auth';
import { sql } from 'kysely';
import { dialectOf, now, type DB, type Row } from '../db';
import { badRequest, forbidden, notFound, tooLarge } from '../errors';
import { requireCaller } from '../guard';
import { readId } from '../records';
import { DEFAULT_UPLOAD_POLICY, scheduleSweep } from '../attachments';
import { readAll, type FileKind, type FileStore } from '../storage';
import { cleanTag, formError, imageType, isDocx, reencodeImage, removeAll, streamToFile, thumbnailOf, type Reencoded } from '../uploads';
import { ok } from './common';

const MB = 1024 * 1024;
export const MAX_IMAGE_BYTES = 10 * MB;
export const MAX_DOCX_BYTES = 10 * MB;
/** The form fields of images 1 to 4 (SPEC §7.5). */
const IMAGE_FIELDS = ['file', 'file1', 'file2', 'file3'];
const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const THUMB_TYPE = 'image/webp';
const IMAGE_NAME = /^(.{1,300})_([1-4])\.png$/;
const DOCX_NAME = /^[A-Za-z0-9_-]{1,120}\.docx$/;
/** The advisory lock class under which a user's quota is checked (PostgreSQL). */
const QUOTA_LOCK = 73120515;
/** What a form may carry beyond its files: field names, boundaries, small fields. */
const FORM_OVERHEAD = 64 * 1024;

interface Staged {
  index: number;
  tmp: string;
  type: string;
  size: number;
}

/** Whether the caller may replace or remove images owned by this user. */
const mayManageImages = (caller: Caller, ownerId: number) => caller.id === ownerId || caller.can('products');

const megabytes = (bytes: number) => `${Math.round((bytes / MB) * 10) / 10} MB`;

export async function fileRoutes(app: FastifyInstance, { db, config, throttle, clock, files: store }: AppContext) {
  const policy = { ...DEFAULT_UPLOAD_POLICY, ...config.uploads };
  const stopSweep = scheduleSweep(db, store, policy.graceMs, clock ?? Date.now, (err) => app.log.error({ err }, 'sweeping unattached files failed'));
  app.addHook('onClose', async () => {
    stopSweep();
  });
  const apiBase = `${config.publicUrl.replace(/\/$/, '')}/api`;

  /**
   * What an upload must pass before its body is read: a size the form can have, and the caller's
   * rate (each attempt counts).
   */
  async function admit(request: FastifyRequest, caller: Caller, maxBytes: number) {
    const declared = Number(request.headers['content-length']);
    if (declared > maxBytes + FORM_OVERHEAD) throw tooLarge(`The form is too large: at most ${megabytes(maxBytes)} of files`);
    await throttle!.take([[`upload:user:${caller.id}`, throttle!.limits.upload]]);
  }

  /**
   * Refuses what would take the owner over their storage quota: what they store now, less the files
   * this upload replaces, plus the new ones. Admins are exempt.
   */
  async function checkQuota(trx: DB, caller: Caller, replaced: { kind: string; tag: string; idx?: number[] }, adding: number) {
    if (caller.role === 'admin') return;
    // One check at a time per user: SQLite's write transactions already take turns; PostgreSQL's need a lock.
    if (dialectOf(trx) === 'postgres') await sql`select pg_advisory_xact_lock(${QUOTA_LOCK}, ${caller.id})`.execute(trx);
    const sum = (q: ReturnType<typeof sizes>) => q.executeTakeFirst().then((r) => Number(r?.total ?? 0));
    const sizes = () => trx.selectFrom('uploads').select((eb) => eb.fn.sum<number>(eb(eb.ref('size'), '+', eb.fn.coalesce('thumb_size', eb.lit(0)))).as('total'));
    const used = await sum(sizes().where('owner_id', '=', caller.id));
    let freed = sizes().where('owner_id', '=', caller.id).where('kind', '=', replaced.kind).where('tag', '=', replaced.tag);
    if (replaced.idx) freed = freed.where('idx', 'in', replaced.idx);
    const free = policy.quotaBytes - used + (await sum(freed));
    if (adding > free) {
      throw tooLarge(`Not enough storage left: these files take ${megabytes(adding)} and ${megabytes(Math.max(0, free))} of your ${megabytes(policy.quotaBytes)} are free; remove files you no longer use first`);
    }
  }

  /** Streams the files of a form to the incoming folder; fields come back beside them. */
  async function receive(request: FastifyRequest, opts: { names: string[]; maxFiles: number; maxBytes: number; tooMany: string }) {
    const staged: Staged[] = [];
    const fields: Record<string, string> = {};
    try {
      const limits = { fileSize: opts.maxBytes, files: opts.maxFiles, fields: 10, fieldSize: 1024, parts: opts.maxFiles + 10, headerPairs: 50 };
      for await (const part of request.parts({ limits })) {
        if (part.type === 'field') {
          fields[part.fieldname] = String(part.value);
          continue;
        }
        const index = opts.names.indexOf(part.fieldname) + 1;
        if (index === 0 || staged.some((s) => s.index === index)) {
          part.file.resume();
          throw badRequest(`Send the files in the fields ${opts.names.join(', ')}, one file each`);
        }
        const tmp = store.scratch();
        const entry: Staged = { index, tmp, type: '', size: 0 };
        staged.push(entry);
        const { head, size } = await streamToFile(part.file, tmp);
        if (part.file.truncated) throw tooLarge(`Each file must be at most ${opts.maxBytes / MB} MB`);
        entry.size = size;
        entry.type = imageType(head) ?? '';
      }
      return { staged, fields };
    } catch (error) {
      await removeAll(staged.map((s) => s.tmp));
      throw formError(error, opts.tooMany);
    }
  }

  /**
   * Puts a file in place under its name and records it, keeping whether records already name it. The
   * old row goes first: a sweep removing it (attachments.ts) holds it until its files are gone.
   */
  async function keep(trx: DB, kind: FileKind, row: Row & { kind: string; tag: string; idx: number }, from: { file: string; thumb?: string }) {
    const before = await trx.deleteFrom('uploads').where('kind', '=', row.kind).where('tag', '=', row.tag).where('idx', '=', row.idx)
      .returning(['attached_at', 'thumb_name']).executeTakeFirst();
    await store.place(kind, from.file, String(row.file_name));
    if (from.thumb) await store.place(kind, from.thumb, String(row.thumb_name));
    else if (before?.thumb_name) await store.remove(kind, [String(before.thumb_name)]);
    await trx.insertInto('uploads').values({ ...row, attached_at: before?.attached_at ?? null, created_at: now() }).execute();
  }

  app.post('/upload-image', { config: { multipart: true } }, async (request) => {
    const caller = requireCaller(request.caller);
    if (caller.role === 'buyer') throw forbidden('Only sellers and administrators upload product images');
    await admit(request, caller, IMAGE_FIELDS.length * MAX_IMAGE_BYTES);
    const { staged, fields } = await receive(request, {
      names: IMAGE_FIELDS, maxFiles: 4, maxBytes: MAX_IMAGE_BYTES, tooMany: 'At most 4 images can be uploaded at once',
    });
    const images: Reencoded[] = [];
    try {
      if (staged.length === 0) throw badRequest('Choose up to 4 images to upload (file, file1, file2, file3)');
      const wrong = staged.find((s) => !s.type);
      if (wrong) throw badRequest(`Image ${wrong.index} is not a PNG or JPEG image`);
      const tag = cleanTag(fields.tag);
      if (!tag) throw badRequest('tag is required: letters, digits, _ and - (the product name and your user id)');
      if (fields.shop_id !== undefined && fields.shop_id !== '') await checkShop(db, caller, readId(fields.shop_id, 'shop_id'));
      const owner = await db.selectFrom('uploads').select('owner_id').where('kind', '=', 'image').where('tag', '=', tag).executeTakeFirst();
      if (owner && !mayManageImages(caller, Number(owner.owner_id))) throw forbidden('These images belong to another seller; choose another product name');
      if (!owner) checkNamespace(caller, tag);
      staged.sort((a, b) => a.index - b.index);
      for (const s of staged) {
        const image = await reencodeImage(s.tmp, s.type as 'image/png' | 'image/jpeg');
        if (!image) throw badRequest(`Image ${s.index} could not be read: it is not a whole PNG or JPEG picture`);
        images.push(image);
      }
      const files = await db.transaction().execute(async (trx) => {
        await checkQuota(trx, caller, { kind: 'image', tag, idx: staged.map((s) => s.index) }, images.reduce((n, i) => n + i.size + i.thumbSize, 0));
        const urls: string[] = [];
        for (const [n, s] of staged.entries()) {
          const name = `${tag}_${s.index}.png`;
          await keep(trx, 'images', {
            kind: 'image', tag, idx: s.index, owner_id: owner ? Number(owner.owner_id) : caller.id,
            shop_id: fields.shop_id ? Number(fields.shop_id) : null, file_name: name, content_type: s.type, size: images[n].size,
            thumb_name: `${tag}_${s.index}.thumb.webp`, thumb_size: images[n].thumbSize, uploaded_by: caller.id,
          }, images[n]);
          urls.push(`${apiBase}/files/images/${name}`);
        }
        return urls;
      });
      return ok({ query: files.length === 1 ? '1 image uploaded' : `${files.length} images uploaded`, detail: { tag, files } });
    } finally {
      await removeAll([...staged.map((s) => s.tmp), ...images.flatMap((i) => [i.file, i.thumb])]);
    }
  });

  app.post('/upload-docx', { config: { multipart: true } }, async (request) => {
    const caller = requireCaller(request.caller);
    await admit(request, caller, MAX_DOCX_BYTES);
    const { staged, fields } = await receive(request, {
      names: ['file'], maxFiles: 1, maxBytes: MAX_DOCX_BYTES, tooMany: 'Send one document at a time',
    });
    try {
      if (staged.length === 0) throw badRequest('Choose a .docx document to upload (file)');
      if (!(await isDocx(staged[0].tmp))) throw badRequest('The file is not a Word document (.docx)');
      // One CV per user, replaced by the next; only an admin names a document. The uploader's id is
      // part of the name, so two users' documents never meet.
      const chosen = caller.role === 'admin' ? cleanTag(fields.tag).slice(0, 80) : '';
      const tag = `${chosen || 'cv'}_${caller.id}`;
      const name = `${tag}.docx`;
      await db.transaction().execute(async (trx) => {
        await checkQuota(trx, caller, { kind: 'docx', tag }, staged[0].size);
        await keep(trx, 'documents', {
          kind: 'docx', tag, idx: 1, owner_id: caller.id, shop_id: null, file_name: name, content_type: DOCX_TYPE,
          size: staged[0].size, thumb_name: null, thumb_size: null, uploaded_by: caller.id,
        }, { file: staged[0].tmp });
      });
      return ok({ query: 'Document uploaded', detail: { files: [`${apiBase}/download/${name}`] } });
    } finally {
      await removeAll(staged.map((s) => s.tmp));
    }
  });

  app.post('/upload/status', async (request) => {
    const caller = requireCaller(request.caller);
    const body = bodyOf(request);
    if (body.tyype !== 'clear' && body.type !== 'clear') throw badRequest("Send {tyype: 'clear', tag} to remove a product's images");
    const tag = cleanTag(body.tag);
    if (!tag) throw badRequest('tag is required');
    const rows = await db.selectFrom('uploads').select(['owner_id', 'file_name', 'thumb_name']).where('kind', '=', 'image').where('tag', '=', tag).execute();
    if (rows.length === 0) throw notFound(`No images are stored for ${tag}`);
    if (!mayManageImages(caller, Number(rows[0].owner_id))) throw forbidden('These images belong to another seller');
    await db.deleteFrom('uploads').where('kind', '=', 'image').where('tag', '=', tag).execute();
    await store.remove('images', rows.flatMap((r) => [r.file_name, r.thumb_name]).filter(Boolean).map(String));
    return ok({ query: rows.length === 1 ? '1 image removed' : `${rows.length} images removed`, detail: { tag } });
  });

  app.get<{ Params: { name: string }; Querystring: { size?: string } }>('/files/images/:name', async (request, reply) => {
    const match = IMAGE_NAME.exec(request.params.name);
    const tag = match ? cleanTag(match[1]) : '';
    const row = tag
      ? await db.selectFrom('uploads').selectAll().where('kind', '=', 'image').where('tag', '=', tag).where('idx', '=', Number(match![2])).executeTakeFirst()
      : undefined;
    if (!row) throw notFound('There is no such image');
    if (!config.strict && request.query.size === 'thumb') {
      // An image stored before thumbnails existed (the demo's pictures) gets its thumbnail when first asked.
      const thumb = row.thumb_name ? String(row.thumb_name) : await backfillThumbnail(row);
      if (thumb) return sendFile(reply, store, 'images', thumb, THUMB_TYPE, { 'Cache-Control': 'public, max-age=60' });
    }
    return sendFile(reply, store, 'images', String(row.file_name), String(row.content_type), { 'Cache-Control': 'public, max-age=60' });
  });

  /** Makes and records the thumbnail of a stored image that has none; null when its file is missing or broken. */
  async function backfillThumbnail(row: Row): Promise<string | null> {
    const bytes = await readAll(store, 'images', String(row.file_name));
    const small = bytes && (await thumbnailOf(bytes));
    if (!small) return null;
    const name = String(row.file_name).replace(/\.png$/, '.thumb.webp');
    await store.write('images', name, small);
    await db.updateTable('uploads').set({ thumb_name: name, thumb_size: small.length }).where('id', '=', Number(row.id)).execute();
    return name;
  }

  app.get<{ Params: { name: string } }>('/download/:name', async (request, reply) => {
    const caller = requireCaller(request.caller);
    const name = request.params.name;
    const row = DOCX_NAME.test(name)
      ? await db.selectFrom('uploads').selectAll().where('kind', '=', 'docx').where('file_name', '=', name).executeTakeFirst()
      : undefined;
    if (!row) throw notFound('There is no such document');
    if (Number(row.owner_id) !== caller.id && !caller.can('job-applicants')) {
      throw forbidden('Only its uploader and administrators of job applicants can download this document');
    }
    return sendFile(reply, store, 'documents', name, DOCX_TYPE, {
      'Content-Disposition': `attachment; filename="${name}"`, 'Cache-Control': 'private, no-store',
    });
  });
}

/**
 * A new image tag must be in the caller's own namespace: the console tags a product's images with its
 * name followed by the user id (SPEC §7.4), so the tag must end with the caller's id. An admin holding
 * the products access tags any product's images (editing a seller's product, the console uses the
 * admin's own id). Tags already stored keep their owner. The contract's tag has no separator, so a
 * name ending in digits still reads as another id's ('Lamp1' + 3 is 'Lamp' + 13): refusing those
 * would refuse every such name once enough users exist, so they stay first come (docs/decisions.md).
 */
function checkNamespace(caller: Caller, tag: string) {
  if (caller.can('products')) return;
  const id = String(caller.id);
  if (!tag.endsWith(id)) throw forbidden(`Image tags are the product name followed by your user id (${id}), 100 characters at most; choose another product name`);
}

/** A seller uploads only for their own shops; an admin holding the products access for any shop. */
async function checkShop(db: DB, caller: Caller, shopId: number) {
  const shop = await db.selectFrom('shops').select(['id', 'owner_id']).where('id', '=', shopId).executeTakeFirst();
  if (!shop) throw badRequest(`shop id ${shopId} does not match any shop`);
  if (Number(shop.owner_id) !== caller.id && !caller.can('products')) throw forbidden('You can only upload images for your own shops');
}

async function sendFile(reply: FastifyReply, store: FileStore, kind: FileKind, name: string, type: string, headers: Record<string, string>) {
  const file = await store.open(kind, name);
  if (!file) throw notFound('The file is missing');
  return reply.headers({ 'Content-Type': type, 'Content-Length': String(file.size), ...headers }).send(file.stream);
}
