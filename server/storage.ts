/**
 * Where stored uploads live. Every read, write and removal of a stored file goes through a FileStore,
 * with two drivers:
 * - the local folder (the default): images and documents under DATA_DIR/files/{images,documents},
 *   private to the server's user. One machine only: another machine's process does not see them.
 * - an S3-compatible bucket (FILES_BUCKET): objects `images/{name}` and `documents/{name}`, shared by
 *   every API process on every machine. Endpoint, region and credentials come from the AWS SDK's own
 *   environment (AWS_ENDPOINT_URL_S3, AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY);
 *   FILES_PATH_STYLE=1 for stores that want the bucket in the path (MinIO and the like).
 * Files being received and processed stay on local disk first (the incoming folder, never served)
 * and are placed only when they are good.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { randomToken } from './auth';

export type FileKind = 'images' | 'documents';

export interface FileStore {
  /** Local folder for files being received and processed (never served). */
  readonly incoming: string;
  /** A new, unused path in the incoming folder. */
  scratch(suffix?: string): string;
  /** Moves a processed incoming file into place under this name, replacing any file of that name. */
  place(kind: FileKind, from: string, name: string): Promise<void>;
  /** Writes bytes under this name (the demo seed's pictures). */
  write(kind: FileKind, name: string, bytes: Buffer): Promise<void>;
  /** A stored file as a stream with its size, or null when it is missing. */
  open(kind: FileKind, name: string): Promise<{ stream: Readable; size: number } | null>;
  /** Removes stored files, ignoring those already gone. */
  remove(kind: FileKind, names: readonly string[]): Promise<void>;
  /** Why stored files cannot be reached now (the readiness probe), or undefined. */
  problem(): Promise<string | undefined>;
  close(): Promise<void>;
}

/** FILES_BUCKET and FILES_PATH_STYLE (server/config.ts); without a bucket, the local folder. */
export interface FileStoreOptions {
  dataDir?: string;
  filesBucket?: string;
  filesPathStyle?: boolean;
}

/** A stored file's bytes, or null when it is missing. */
export async function readAll(store: FileStore, kind: FileKind, name: string): Promise<Buffer | null> {
  const file = await store.open(kind, name);
  if (!file) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of file.stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

export function openFileStore(opts: FileStoreOptions): FileStore {
  return opts.filesBucket ? new BucketStore(opts.dataDir, opts.filesBucket, opts.filesPathStyle ?? false) : new DiskStore(opts.dataDir);
}

/** Names come from the server (cleaned tags), never from a client; the base name is kept regardless. */
const baseName = (name: string) => path.basename(name);

/** The incoming folder under DATA_DIR/files (or a temporary folder removed by close()). */
abstract class LocalIncoming {
  readonly incoming: string;
  protected readonly root: string;
  private readonly temporary?: string;

  /** Without a DATA_DIR (an app built in a test), a temporary folder removed by close(). */
  constructor(dataDir?: string) {
    this.temporary = dataDir ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'marketplace-files-'));
    this.root = path.join(dataDir ?? this.temporary!, 'files');
    this.incoming = path.join(this.root, 'incoming');
    fs.mkdirSync(this.incoming, { recursive: true, mode: 0o700 });
    // Half-written files of a server that stopped mid-upload are never served; clear them.
    for (const stale of fs.readdirSync(this.incoming)) fs.rmSync(path.join(this.incoming, stale), { force: true });
  }

  scratch(suffix = '.part'): string {
    return path.join(this.incoming, `${randomToken()}${suffix}`);
  }

  async close(): Promise<void> {
    if (this.temporary) await fs.promises.rm(this.temporary, { recursive: true, force: true });
  }
}

/** The local folder: DATA_DIR/files/{images,documents}. */
export class DiskStore extends LocalIncoming implements FileStore {
  private readonly dirs: Record<FileKind, string>;

  constructor(dataDir?: string) {
    super(dataDir);
    this.dirs = { images: path.join(this.root, 'images'), documents: path.join(this.root, 'documents') };
    for (const dir of Object.values(this.dirs)) fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  async place(kind: FileKind, from: string, name: string): Promise<void> {
    await fs.promises.rename(from, this.pathOf(kind, name));
  }

  async write(kind: FileKind, name: string, bytes: Buffer): Promise<void> {
    await fs.promises.writeFile(this.pathOf(kind, name), bytes, { mode: 0o600 });
  }

  async open(kind: FileKind, name: string): Promise<{ stream: Readable; size: number } | null> {
    const file = this.pathOf(kind, name);
    const stat = await fs.promises.stat(file).catch(() => null);
    return stat ? { stream: fs.createReadStream(file), size: stat.size } : null;
  }

  async remove(kind: FileKind, names: readonly string[]): Promise<void> {
    await Promise.all(names.map((name) => fs.promises.rm(this.pathOf(kind, name), { force: true })));
  }

  async problem(): Promise<string | undefined> {
    try {
      for (const dir of Object.values(this.dirs)) await fs.promises.access(dir, fs.constants.W_OK);
      return undefined;
    } catch {
      return 'the file storage (DATA_DIR) is missing or not writable';
    }
  }

  private pathOf(kind: FileKind, name: string): string {
    return path.join(this.dirs[kind], baseName(name));
  }
}

/** An S3-compatible bucket: objects `{kind}/{name}`, streamed both ways. */
export class BucketStore extends LocalIncoming implements FileStore {
  private readonly client: S3Client;

  constructor(dataDir: string | undefined, readonly bucket: string, pathStyle: boolean) {
    super(dataDir);
    // The SDK reads the endpoint, region and credentials from the environment; a region is required
    // even by stores that ignore it. Checksums only where an operation requires them: the SDK's
    // default (a CRC32 trailer in an aws-chunked body) is not understood by every S3-compatible store,
    // some of which would keep the chunk framing as the file's bytes.
    this.client = new S3Client({
      forcePathStyle: pathStyle,
      region: process.env.AWS_REGION || process.env.AWS_DEFAULT_REGION || 'us-east-1',
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async place(kind: FileKind, from: string, name: string): Promise<void> {
    const { size } = await fs.promises.stat(from);
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: this.key(kind, name), Body: fs.createReadStream(from), ContentLength: size }));
    await fs.promises.rm(from, { force: true });
  }

  async write(kind: FileKind, name: string, bytes: Buffer): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: this.key(kind, name), Body: bytes }));
  }

  async open(kind: FileKind, name: string): Promise<{ stream: Readable; size: number } | null> {
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.key(kind, name) }));
      return { stream: object.Body as Readable, size: Number(object.ContentLength) };
    } catch (error) {
      if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return null;
      throw error;
    }
  }

  async remove(kind: FileKind, names: readonly string[]): Promise<void> {
    // Deleting a missing key succeeds on S3.
    await Promise.all(names.map((name) => this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.key(kind, name) }))));
  }

  async problem(): Promise<string | undefined> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }), { abortSignal: AbortSignal.timeout(2000) });
      return undefined;
    } catch (error) {
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      const why = status === 404 ? 'no such bucket' : status === 403 ? 'access denied' : error instanceof Error && error.message ? error.message : String(error);
      return `the file storage (bucket ${this.bucket}) cannot be reached (${why})`;
    }
  }

  async close(): Promise<void> {
    this.client.destroy();
    await super.close();
  }

  private key(kind: FileKind, name: string): string {
    return `${kind}/${baseName(name)}`;
  }
}
