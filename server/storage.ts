/**
 * Where stored uploads live. Every read, write and removal of a stored file goes through a FileStore,
 * so another kind of store (an S3 bucket) can take the local folders' place: images and documents
 * under DATA_DIR/files/{images,documents}, private to the server's user. Files being received and
 * processed stay on local disk first (the incoming folder) and are placed only when they are good.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { randomToken } from './auth';

export type FileKind = 'images' | 'documents';

export class FileStore {
  /** Local folder for files being received and processed (never served). */
  readonly incoming: string;
  private readonly dirs: Record<FileKind, string>;
  private readonly temporary?: string;

  /** Without a DATA_DIR (an app built in a test), a temporary folder removed by close(). */
  constructor(dataDir?: string) {
    this.temporary = dataDir ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'marketplace-files-'));
    const root = path.join(dataDir ?? this.temporary!, 'files');
    this.dirs = { images: path.join(root, 'images'), documents: path.join(root, 'documents') };
    this.incoming = path.join(root, 'incoming');
    for (const dir of [...Object.values(this.dirs), this.incoming]) fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Half-written files of a server that stopped mid-upload are never served; clear them.
    for (const stale of fs.readdirSync(this.incoming)) fs.rmSync(path.join(this.incoming, stale), { force: true });
  }

  /** A new, unused path in the incoming folder. */
  scratch(suffix = '.part'): string {
    return path.join(this.incoming, `${randomToken()}${suffix}`);
  }

  /** Moves a processed incoming file into place under this name, replacing any file of that name. */
  async place(kind: FileKind, from: string, name: string): Promise<void> {
    await fs.promises.rename(from, this.pathOf(kind, name));
  }

  /** Writes bytes under this name (the demo seed's pictures). */
  async write(kind: FileKind, name: string, bytes: Buffer): Promise<void> {
    await fs.promises.writeFile(this.pathOf(kind, name), bytes, { mode: 0o600 });
  }

  /** A stored file as a stream with its size, or null when it is missing. */
  async open(kind: FileKind, name: string): Promise<{ stream: Readable; size: number } | null> {
    const file = this.pathOf(kind, name);
    const stat = await fs.promises.stat(file).catch(() => null);
    return stat ? { stream: fs.createReadStream(file), size: stat.size } : null;
  }

  /** A stored file's bytes, or null when it is missing. */
  async read(kind: FileKind, name: string): Promise<Buffer | null> {
    return fs.promises.readFile(this.pathOf(kind, name)).catch(() => null);
  }

  /** Removes stored files, ignoring those already gone. */
  async remove(kind: FileKind, names: readonly string[]): Promise<void> {
    await Promise.all(names.map((name) => fs.promises.rm(this.pathOf(kind, name), { force: true })));
  }

  async close(): Promise<void> {
    if (this.temporary) await fs.promises.rm(this.temporary, { recursive: true, force: true });
  }

  /** Names come from the server (cleaned tags), never from a client; the base name is kept regardless. */
  private pathOf(kind: FileKind, name: string): string {
    return path.join(this.dirs[kind], path.basename(name));
  }
}
