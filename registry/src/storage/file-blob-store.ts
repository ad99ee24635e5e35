import { createHash, randomBytes } from 'node:crypto';
import { link, mkdir, open as openFile, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { BlobStore, StoredBlob } from './blob-store.js';

/**
 * Package files on a file system by their SHA-256 (content addressed: identical packages are
 * stored once): `<dataDirectory>/packages/` by default. Files are written under a temporary name
 * and renamed, so a reader never sees half a file; several registry instances may share the folder
 * (a network volume), as two writers of one digest write the same bytes.
 */
export class FileBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  /** Where the blob of `sha256` lives: `<root>/ab/cdef...`. */
  pathOf(sha256: string): string {
    if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error(`Not a SHA-256 digest: ${sha256}`);
    return join(this.root, sha256.slice(0, 2), sha256.slice(2));
  }

  /** Stores `bytes` (written to a temporary name, then renamed) and returns their digest and size. */
  async put(bytes: Uint8Array): Promise<StoredBlob> {
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const path = this.pathOf(sha256);
    if (!(await this.has(sha256))) {
      await mkdir(join(this.root, sha256.slice(0, 2)), { recursive: true });
      const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
      await writeFile(temporary, bytes, { flag: 'wx' });
      await rename(temporary, path);
    }
    return { sha256, size: bytes.length };
  }

  /** Stores a file already on disk (an upload) by its digest; hard-links when possible. */
  async putFile(file: string): Promise<StoredBlob> {
    const bytes = await readFile(file);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const path = this.pathOf(sha256);
    if (!(await this.has(sha256))) {
      await mkdir(join(this.root, sha256.slice(0, 2)), { recursive: true });
      await link(file, path).catch(async () => {
        const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
        await writeFile(temporary, bytes, { flag: 'wx' });
        await rename(temporary, path);
      });
    }
    return { sha256, size: bytes.length };
  }

  async has(sha256: string): Promise<boolean> {
    return stat(this.pathOf(sha256)).then(
      (entry) => entry.isFile(),
      () => false,
    );
  }

  /** Opens the file before resolving, so a missing blob rejects here (ENOENT) rather than in the middle of a response. */
  async open(sha256: string): Promise<Readable> {
    const file = await openFile(this.pathOf(sha256), 'r');
    return file.createReadStream();
  }

  async remove(sha256: string): Promise<void> {
    await rm(this.pathOf(sha256), { force: true });
  }
}
