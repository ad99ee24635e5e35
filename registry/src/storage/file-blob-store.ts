import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, type ReadStream } from 'node:fs';
import { link, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Package files stored on disk by their SHA-256 (content addressed: identical packages are stored once). */
export class BlobStore {
  constructor(private readonly root: string) {}

  /** Where the blob of `sha256` lives: `<root>/ab/cdef...`. */
  pathOf(sha256: string): string {
    if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error(`Not a SHA-256 digest: ${sha256}`);
    return join(this.root, sha256.slice(0, 2), sha256.slice(2));
  }

  /** Stores `bytes` (written to a temporary name, then renamed) and returns their digest and size. */
  async put(bytes: Uint8Array): Promise<{ sha256: string; size: number }> {
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
  async putFile(file: string): Promise<{ sha256: string; size: number }> {
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

  /** A stream of the blob's bytes. */
  open(sha256: string): ReadStream {
    return createReadStream(this.pathOf(sha256));
  }

  async remove(sha256: string): Promise<void> {
    await rm(this.pathOf(sha256), { force: true });
  }
}
