import { open, stat, type FileHandle } from 'node:fs/promises';
import { once } from 'node:events';
import { Readable } from 'node:stream';
import type { PackageLimits } from './limits.js';
import { invalidPackage, tooLarge } from './package-errors.js';

/**
 * The archive opened once, read-only. Every read, including the streams of entry data, goes
 * through this one handle, so the reader sees one file even if the path is replaced while it
 * works, and {@link ArchiveFile.close} can stop every stream still running (a stream that was
 * opened but never read to its end would otherwise stay paused).
 */
export class ArchiveFile {
  readonly size: number;
  readonly #handle: FileHandle;
  readonly #streams = new Set<Readable>();

  private constructor(handle: FileHandle, size: number) {
    this.#handle = handle;
    this.size = size;
  }

  /**
   * Opens `path` after checking that it is a regular file no larger than `maxPackageBytes`.
   *
   * @throws PluginHostError `INVALID_PACKAGE` for anything but a regular file,
   *   `PACKAGE_TOO_LARGE` (`maxPackageBytes`) for a file over the limit.
   */
  static async open(path: string, limits: Pick<PackageLimits, 'maxPackageBytes'>): Promise<ArchiveFile> {
    // Checked on the path first: opening a FIFO for reading would block until a writer appears.
    const before = await stat(path);
    if (!before.isFile()) throw invalidPackage('not a zip archive (not a regular file)');
    if (before.size > limits.maxPackageBytes) {
      throw tooLarge('maxPackageBytes', limits.maxPackageBytes, before.size, 'the package file size');
    }
    const handle = await open(path, 'r');
    try {
      // Checked again on the handle: the size the reader relies on is that of what it opened.
      const opened = await handle.stat();
      if (!opened.isFile()) throw invalidPackage('not a zip archive (not a regular file)');
      if (opened.size > limits.maxPackageBytes) {
        throw tooLarge('maxPackageBytes', limits.maxPackageBytes, opened.size, 'the package file size');
      }
      return new ArchiveFile(handle, opened.size);
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /**
   * Reads exactly `length` bytes at `position`.
   *
   * @throws PluginHostError `INVALID_PACKAGE` when the range runs past the end of the file, which
   *   only a record pointing outside the archive can ask for.
   */
  async read(position: number, length: number, what: string): Promise<Buffer> {
    if (position < 0 || length < 0 || position + length > this.size) {
      throw invalidPackage(`${what} lies outside the archive`);
    }
    // Every byte is read into it before it is returned (or it is thrown away): no zero fill needed.
    const buffer = Buffer.allocUnsafe(length);
    let filled = 0;
    while (filled < length) {
      const { bytesRead } = await this.#handle.read(buffer, filled, length - filled, position + filled);
      if (bytesRead === 0) throw invalidPackage(`${what} lies outside the archive (file shrank)`);
      filled += bytesRead;
    }
    return buffer;
  }

  /** A stream of the bytes from `start` up to `end` (exclusive; default and at most the file size). */
  createReadStream(start: number, end: number = this.size): Readable {
    const handle = this.#handle;
    const stop = Math.min(end, this.size);
    let position = start;
    // A plain positioned-read stream rather than `handle.createReadStream`: destroying one of
    // those closes the shared handle, and an entry's stream is destroyed when it stops early.
    const stream = new Readable({
      highWaterMark: 64 * 1024,
      read(size) {
        const wanted = Math.min(size, stop - position);
        if (wanted <= 0) {
          this.push(null);
          return;
        }
        handle.read(Buffer.allocUnsafe(wanted), 0, wanted, position).then(
          ({ bytesRead, buffer }) => {
            if (bytesRead === 0) {
              this.push(null);
              return;
            }
            position += bytesRead;
            this.push(buffer.subarray(0, bytesRead));
          },
          (error: unknown) => this.destroy(error instanceof Error ? error : new Error(String(error))),
        );
      },
    });
    this.#streams.add(stream);
    stream.once('close', () => this.#streams.delete(stream));
    return stream;
  }

  /** Stops every stream still reading and closes the file. Safe to call more than once. */
  async close(): Promise<void> {
    const pending = [...this.#streams].map(async (stream) => {
      if (stream.closed) return;
      const closed = once(stream, 'close').catch(() => undefined);
      stream.destroy();
      await closed;
    });
    await Promise.all(pending);
    this.#streams.clear();
    await this.#handle.close().catch(() => undefined);
  }
}
