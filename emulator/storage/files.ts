// Object bodies on disk, one file per object version: `<dataDir>/storage/objects/<v[0:2]>/<version>`.
//
// Like storage-api's file backend, every upload writes a new version and the database row points at
// it, so replacing an object is "write the new version, switch the row, delete the old file". Keying
// files by version (a UUID we generate) rather than by object name keeps arbitrary object and bucket
// names (`..`, 300-byte segments, a name that is also a folder) away from the filesystem, and makes a
// move a pure database update. Bodies stream through a temporary file in `storage/tmp` that is renamed
// into place only once complete, so a cut connection or a crash never leaves a partial object visible.
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { copyFile, mkdir, open, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { errors } from './errors.ts';

const VERSION = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface ReceivedFile {
  tmp: string;
  size: number;
  /** Hex MD5 of the body, storage-api's file-backend ETag. */
  md5: string;
}

/** Counts and hashes bytes on their way to disk, and stops a body that grows past the limit. */
class Meter extends Transform {
  size = 0;
  private readonly hash = createHash('md5');

  constructor(private readonly limit: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.limit) {
      const error = errors.entityTooLarge();
      error.closeConnection = true;
      callback(error);
      return;
    }
    this.hash.update(chunk);
    callback(null, chunk);
  }

  digest(): string {
    return this.hash.digest('hex');
  }
}

export class ObjectFiles {
  private readonly objectsDir: string;
  private readonly tmpDir: string;

  constructor(root: string) {
    this.objectsDir = path.join(root, 'objects');
    this.tmpDir = path.join(root, 'tmp');
  }

  /** Creates the folders and removes what an earlier run left half-written. */
  async prepare(): Promise<void> {
    await rm(this.tmpDir, { recursive: true, force: true });
    await mkdir(this.tmpDir, { recursive: true });
    await mkdir(this.objectsDir, { recursive: true });
  }

  /** Where a version's body lives; undefined for versions this store never wrote (rows made by SQL). */
  pathOf(version: string | null | undefined): string | undefined {
    if (!version || !VERSION.test(version)) return undefined;
    return path.join(this.objectsDir, version.slice(0, 2), version);
  }

  /**
   * Streams `body` into a temporary file, refusing more than `limit` bytes. On any failure (limit,
   * aborted request, disk error) the temporary file is gone before this rejects.
   */
  async receive(body: Readable, limit: number, signal: AbortSignal): Promise<ReceivedFile> {
    const tmp = path.join(this.tmpDir, randomUUID());
    const meter = new Meter(limit);
    try {
      await pipeline(body, meter, createWriteStream(tmp, { flags: 'wx' }), { signal });
      // The rename that publishes the file must not outrun its contents after a power cut.
      const handle = await open(tmp, 'r');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    } catch (error) {
      await rm(tmp, { force: true });
      throw error;
    }
    return { tmp, size: meter.size, md5: meter.digest() };
  }

  /** Publishes a received file as `version`. */
  async commit(tmp: string, version: string): Promise<void> {
    const target = this.pathOf(version);
    if (!target) throw new Error(`not a storage version: ${version}`);
    await mkdir(path.dirname(target), { recursive: true });
    await rename(tmp, target);
  }

  async discard(tmp: string): Promise<void> {
    await rm(tmp, { force: true });
  }

  /** Deletes a version's body; a missing file is fine (it may never have been written). */
  async remove(version: string | null | undefined): Promise<void> {
    const file = this.pathOf(version);
    if (file) await rm(file, { force: true });
  }

  /** Copies a version's body to a temporary file, for `commit` under a new version. */
  async duplicate(version: string | null | undefined): Promise<ReceivedFile | undefined> {
    const source = this.pathOf(version);
    if (!source) return undefined;
    const tmp = path.join(this.tmpDir, randomUUID());
    try {
      await copyFile(source, tmp);
      const info = await stat(tmp);
      return { tmp, size: info.size, md5: '' };
    } catch (error) {
      await rm(tmp, { force: true });
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  /** The body of a version, or undefined when its file is missing. */
  async open(
    version: string | null | undefined,
  ): Promise<{ size: number; read(range?: { start: number; end: number }): ReadStream } | undefined> {
    const file = this.pathOf(version);
    if (!file) return undefined;
    try {
      const info = await stat(file);
      return {
        size: info.size,
        read: (range) => createReadStream(file, range ? { start: range.start, end: range.end } : {}),
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  /**
   * Deletes bodies no row points at: left by a crash between publishing a file and committing its
   * row, or by a database reset. Runs at start-up, before any request.
   */
  async collectGarbage(referenced: (versions: string[]) => Promise<Set<string>>): Promise<number> {
    let removed = 0;
    for (const shard of await readdir(this.objectsDir)) {
      const dir = path.join(this.objectsDir, shard);
      const versions = await readdir(dir);
      const keep = versions.length > 0 ? await referenced(versions) : new Set<string>();
      for (const version of versions) {
        if (keep.has(version)) continue;
        await unlink(path.join(dir, version)).catch(() => undefined);
        removed += 1;
      }
    }
    return removed;
  }
}
