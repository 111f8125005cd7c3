/**
 * Files (SPEC §7.5): product images and Word documents (CVs). Uploads are multipart and streamed
 * to disk under DATA_DIR; names on disk are built only from the cleaned tag and the index (nothing
 * a client sends becomes a path); a table records each file's owner. Contract endpoints: they
 * exist in strict mode too.
 *
 * - POST /upload-image: fields file, file1, file2, file3 (images 1 to 4, PNG or JPEG by their
 *   bytes, 10 MB each) and tag; optional shop_id. Sellers and admins.
 * - POST /upload-docx: one .docx in `file` (a zip holding word/document.xml), optional tag. Any
 *   signed-in user.
 * - POST /upload/status {tyype: 'clear', tag}: removes the tag's images (their owner, or an admin
 *   holding the products access).
 * - GET /files/images/{tag}_{n}.png: public, served with the type of the stored bytes.
 * - GET /download/{name}.docx: the uploader or an admin holding the job-applicants access; as an attachment.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bodyOf, type Context } from '../app';
import { randomToken, type Caller } from '../auth';
import { now, type DB } from '../db';
import { badRequest, forbidden, notFound, tooLarge } from '../errors';
import { requireCaller } from '../guard';
import { readId } from '../records';
import { cleanTag, formError, imageType, isDocx, removeAll, streamToFile } from '../uploads';
import { ok } from './common';

const MB = 1024 * 1024;
export const MAX_IMAGE_BYTES = 10 * MB;
export const MAX_DOCX_BYTES = 10 * MB;
/** The form fields of images 1 to 4 (SPEC §7.5). */
const IMAGE_FIELDS = ['file', 'file1', 'file2', 'file3'];
const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const IMAGE_NAME = /^(.{1,300})_([1-4])\.png$/;
const DOCX_NAME = /^[A-Za-z0-9_-]{1,120}\.docx$/;

interface Staged {
  index: number;
  tmp: string;
  type: string;
  size: number;
}

/**
 * Where files live: DATA_DIR/files/{images,documents,incoming}, private to the server's user; without
 * a DATA_DIR (an app built in a test), a temporary folder removed when the app closes.
 */
function folders(dataDir: string | undefined) {
  const temporary = dataDir ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'marketplace-files-'));
  const root = path.join(dataDir ?? temporary!, 'files');
  const dirs = { images: path.join(root, 'images'), documents: path.join(root, 'documents'), incoming: path.join(root, 'incoming') };
  for (const dir of Object.values(dirs)) fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  return { ...dirs, temporary };
}

/** Whether the caller may replace or remove images owned by this user. */
const mayManageImages = (caller: Caller, ownerId: number) => caller.id === ownerId || caller.can('products');

export async function fileRoutes(app: FastifyInstance, { db, config }: Context) {
  const dirs = folders(config.dataDir);
  if (dirs.temporary) app.addHook('onClose', async () => fs.promises.rm(dirs.temporary!, { recursive: true, force: true }));
  const apiBase = `${config.publicUrl.replace(/\/$/, '')}/api`;
  // Half-written files of a server that stopped mid-upload are never served; clear them.
  for (const stale of fs.readdirSync(dirs.incoming)) fs.rmSync(path.join(dirs.incoming, stale), { force: true });

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
        const tmp = path.join(dirs.incoming, `${randomToken()}.part`);
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

  app.post('/upload-image', { config: { multipart: true } }, async (request) => {
    const caller = requireCaller(request.caller);
    if (caller.role === 'buyer') throw forbidden('Only sellers and administrators upload product images');
    const { staged, fields } = await receive(request, {
      names: IMAGE_FIELDS, maxFiles: 4, maxBytes: MAX_IMAGE_BYTES, tooMany: 'At most 4 images can be uploaded at once',
    });
    try {
      if (staged.length === 0) throw badRequest('Choose up to 4 images to upload (file, file1, file2, file3)');
      const wrong = staged.find((s) => !s.type);
      if (wrong) throw badRequest(`Image ${wrong.index} is not a PNG or JPEG image`);
      const tag = cleanTag(fields.tag);
      if (!tag) throw badRequest('tag is required: letters, digits, _ and - (the product name and your user id)');
      if (fields.shop_id !== undefined && fields.shop_id !== '') await checkShop(db, caller, readId(fields.shop_id, 'shop_id'));
      const owner = await db.selectFrom('uploads').select('owner_id').where('kind', '=', 'image').where('tag', '=', tag).executeTakeFirst();
      if (owner && !mayManageImages(caller, Number(owner.owner_id))) throw forbidden('These images belong to another seller; choose another product name');
      const files: string[] = [];
      for (const s of staged.sort((a, b) => a.index - b.index)) {
        const name = `${tag}_${s.index}.png`;
        await fs.promises.rename(s.tmp, path.join(dirs.images, name));
        await db.deleteFrom('uploads').where('kind', '=', 'image').where('tag', '=', tag).where('idx', '=', s.index).execute();
        await db.insertInto('uploads').values({
          kind: 'image', tag, idx: s.index, owner_id: owner ? Number(owner.owner_id) : caller.id,
          shop_id: fields.shop_id ? Number(fields.shop_id) : null, file_name: name, content_type: s.type, size: s.size,
          uploaded_by: caller.id, created_at: now(),
        }).execute();
        files.push(`${apiBase}/files/images/${name}`);
      }
      return ok({ query: `${files.length} image${files.length === 1 ? '' : 's'} uploaded`, detail: { tag, files } });
    } finally {
      await removeAll(staged.map((s) => s.tmp));
    }
  });

  app.post('/upload-docx', { config: { multipart: true } }, async (request) => {
    const caller = requireCaller(request.caller);
    const { staged, fields } = await receive(request, {
      names: ['file'], maxFiles: 1, maxBytes: MAX_DOCX_BYTES, tooMany: 'Send one document at a time',
    });
    try {
      if (staged.length === 0) throw badRequest('Choose a .docx document to upload (file)');
      if (!(await isDocx(staged[0].tmp))) throw badRequest('The file is not a Word document (.docx)');
      // The uploader's id is part of the name, so two users' documents never meet.
      const tag = `${cleanTag(fields.tag || 'cv').slice(0, 80) || 'cv'}_${caller.id}`;
      const name = `${tag}.docx`;
      await fs.promises.rename(staged[0].tmp, path.join(dirs.documents, name));
      await db.deleteFrom('uploads').where('kind', '=', 'docx').where('tag', '=', tag).execute();
      await db.insertInto('uploads').values({
        kind: 'docx', tag, idx: 1, owner_id: caller.id, shop_id: null, file_name: name, content_type: DOCX_TYPE,
        size: staged[0].size, uploaded_by: caller.id, created_at: now(),
      }).execute();
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
    const rows = await db.selectFrom('uploads').select(['owner_id', 'file_name']).where('kind', '=', 'image').where('tag', '=', tag).execute();
    if (rows.length === 0) throw notFound(`No images are stored for ${tag}`);
    if (!mayManageImages(caller, Number(rows[0].owner_id))) throw forbidden('These images belong to another seller');
    await db.deleteFrom('uploads').where('kind', '=', 'image').where('tag', '=', tag).execute();
    await removeAll(rows.map((r) => path.join(dirs.images, String(r.file_name))));
    return ok({ query: `${rows.length} image${rows.length === 1 ? '' : 's'} removed`, detail: { tag } });
  });

  app.get<{ Params: { name: string } }>('/files/images/:name', async (request, reply) => {
    const match = IMAGE_NAME.exec(request.params.name);
    const tag = match ? cleanTag(match[1]) : '';
    const row = tag
      ? await db.selectFrom('uploads').selectAll().where('kind', '=', 'image').where('tag', '=', tag).where('idx', '=', Number(match![2])).executeTakeFirst()
      : undefined;
    if (!row) throw notFound('There is no such image');
    return sendFile(reply, path.join(dirs.images, String(row.file_name)), String(row.content_type), { 'Cache-Control': 'public, max-age=60' });
  });

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
    return sendFile(reply, path.join(dirs.documents, name), DOCX_TYPE, {
      'Content-Disposition': `attachment; filename="${name}"`, 'Cache-Control': 'private, no-store',
    });
  });
}

/** A seller uploads only for their own shops; an admin holding the products access for any shop. */
async function checkShop(db: DB, caller: Caller, shopId: number) {
  const shop = await db.selectFrom('shops').select(['id', 'owner_id']).where('id', '=', shopId).executeTakeFirst();
  if (!shop) throw badRequest(`shop id ${shopId} does not match any shop`);
  if (Number(shop.owner_id) !== caller.id && !caller.can('products')) throw forbidden('You can only upload images for your own shops');
}

async function sendFile(reply: FastifyReply, file: string, type: string, headers: Record<string, string>) {
  const stat = await fs.promises.stat(file).catch(() => null);
  if (!stat) throw notFound('The file is missing');
  return reply.headers({ 'Content-Type': type, 'Content-Length': String(stat.size), ...headers }).send(fs.createReadStream(file));
}
