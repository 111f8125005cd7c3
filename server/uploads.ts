/**
 * Multipart forms without buffering: fields read with small limits, files streamed to disk under
 * DATA_DIR, recognised by their bytes (never by their names or declared types).
 */
import fs from 'node:fs';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import sharp from 'sharp';
import { badRequest, tooLarge, unsupported } from './errors';

// Each upload is decoded once from a fresh file: nothing to gain from libvips' operation cache.
sharp.cache(false);

/** Limits of a form that carries no files (the users call). */
const FIELDS_ONLY = { files: 0, fields: 20, fieldSize: 64 * 1024, parts: 20, headerPairs: 50 };

/** The fields of a multipart form that must not carry files. */
export async function formFields(request: FastifyRequest): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  try {
    for await (const part of request.parts({ limits: FIELDS_ONLY })) {
      if (part.type === 'file') throw badRequest('This call takes no files');
      if (part.valueTruncated) throw tooLarge(`${part.fieldname.slice(0, 64)} is too long`);
      out[part.fieldname] = String(part.value);
    }
  } catch (error) {
    throw formError(error);
  }
  return out;
}

/** Readable errors for a form's limits. */
export function formError(error: unknown, files = 'Too many files in the form'): unknown {
  const code = (error as { code?: string }).code;
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') return unsupported('Send the files as a multipart form');
  if (code === 'FST_FILES_LIMIT') return tooLarge(files);
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') return tooLarge('Too many fields in the form');
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge('The file is too large');
  if (code === 'FST_PROTO_VIOLATION') return badRequest('The form uses a reserved field name');
  if (error instanceof Error && /multipart|boundary|Unexpected end/i.test(error.message) && !(error as { statusCode?: number }).statusCode) {
    return badRequest('The multipart form is malformed');
  }
  return error;
}

/** Streams a file part to a new file (never an existing one), keeping its first bytes for sniffing. */
export async function streamToFile(stream: Readable, file: string): Promise<{ head: Buffer; size: number }> {
  let head = Buffer.alloc(0);
  let size = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (head.length < 16) head = Buffer.concat([head, chunk.subarray(0, 16 - head.length)]);
      size += chunk.length;
      done(null, chunk);
    },
  });
  await pipeline(stream, tap, fs.createWriteStream(file, { flags: 'wx', mode: 0o600 }));
  return { head, size };
}

/** The image type of these first bytes: PNG or JPEG, or null. */
export function imageType(head: Buffer): 'image/png' | 'image/jpeg' | null {
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  return null;
}

/** The longest side of a thumbnail, in pixels (list and form previews). */
export const THUMB_SIZE = 256;
/** Pictures over 50 megapixels are refused before they are decoded (a small file can claim a huge size). */
const MAX_PIXELS = 50_000_000;

/** The thumbnail of a picture (WebP, at most THUMB_SIZE on its longer side). */
const thumbnail = (input: string | Buffer) =>
  sharp(input, { limitInputPixels: MAX_PIXELS }).resize(THUMB_SIZE, THUMB_SIZE, { fit: 'inside', withoutEnlargement: true }).webp({ quality: 75 });

/** The thumbnail of a stored picture's bytes, or null when they do not decode. */
export async function thumbnailOf(bytes: Buffer): Promise<Buffer | null> {
  return thumbnail(bytes).toBuffer().catch(() => null);
}

export interface Reencoded {
  /** The re-encoded picture and its thumbnail, local files next to the received one. */
  file: string;
  size: number;
  thumb: string;
  thumbSize: number;
}

/**
 * Decodes a received picture and writes it anew in its own type (turned upright, with no metadata:
 * no location, no camera, no comments), and a WebP thumbnail. Null when the bytes do not decode as a
 * whole picture (a signature followed by anything else, a truncated file).
 */
export async function reencodeImage(received: string, type: 'image/png' | 'image/jpeg'): Promise<Reencoded | null> {
  const file = `${received}.image`;
  const thumb = `${received}.thumb`;
  try {
    const image = sharp(received, { limitInputPixels: MAX_PIXELS }).rotate();
    const out = await (type === 'image/png' ? image.png() : image.jpeg({ quality: 85 })).toFile(file);
    const small = await thumbnail(file).toFile(thumb);
    return { file, size: out.size, thumb, thumbSize: small.size };
  } catch {
    await removeAll([file, thumb]);
    return null;
  }
}

/**
 * Whether a file on disk is a Word document: a zip archive whose central directory holds
 * word/document.xml (read from the end of the file, without unpacking anything).
 */
export async function isDocx(file: string): Promise<boolean> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const { size } = await handle.stat();
    if (size < 22) return false;
    const start = Buffer.alloc(4);
    await handle.read(start, 0, 4, 0);
    if (!start.equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) return false;
    // The end-of-central-directory record sits in the last 22 bytes plus a comment of up to 64 KB.
    const tailLength = Math.min(size, 22 + 0xffff);
    const tail = Buffer.alloc(tailLength);
    await handle.read(tail, 0, tailLength, size - tailLength);
    let eocd = -1;
    for (let i = tailLength - 22; i >= 0; i--) {
      if (tail.readUInt32LE(i) === 0x06054b50) {
        eocd = i;
        break;
      }
    }
    if (eocd < 0) return false;
    const entries = tail.readUInt16LE(eocd + 10);
    const dirSize = tail.readUInt32LE(eocd + 12);
    const dirOffset = tail.readUInt32LE(eocd + 16);
    if (dirOffset + dirSize > size || dirSize > 4 * 1024 * 1024) return false;
    const dir = Buffer.alloc(dirSize);
    await handle.read(dir, 0, dirSize, dirOffset);
    let at = 0;
    for (let n = 0; n < entries && at + 46 <= dir.length; n++) {
      if (dir.readUInt32LE(at) !== 0x02014b50) return false;
      const nameLength = dir.readUInt16LE(at + 28);
      const name = dir.subarray(at + 46, at + 46 + nameLength).toString('utf8');
      if (name === 'word/document.xml') return true;
      at += 46 + nameLength + dir.readUInt16LE(at + 30) + dir.readUInt16LE(at + 32);
    }
    return false;
  } finally {
    await handle.close();
  }
}

/** A tag as stored: letters, digits, '_' and '-' only (spaces become '_'), at most 100 characters. */
export function cleanTag(value: unknown): string {
  if (typeof value !== 'string' && typeof value !== 'number') return '';
  return String(value).trim().replace(/\s+/g, '_').replace(/[^A-Za-z0-9_-]/g, '').slice(0, 100);
}

/** Removes files, ignoring those already gone. */
export async function removeAll(files: string[]): Promise<void> {
  await Promise.all(files.map((f) => fs.promises.rm(f, { force: true })));
}
