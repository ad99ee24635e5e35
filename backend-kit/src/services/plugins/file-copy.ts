import { constants } from 'node:fs';
import { open, readdir, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { syncFolder } from '../atomic-file.js';

// Where the platform has it (not Windows), opening refuses a symbolic link in the last path
// segment, so a file swapped for a link after it was looked at is still never followed.
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

async function writeAll(handle: FileHandle, chunk: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < chunk.length) {
    const { bytesWritten } = await handle.write(chunk, offset, chunk.length - offset);
    offset += bytesWritten;
  }
}

/** Thrown by {@link copyRegularFile} when the source is not a regular file. */
export class NotRegularFileError extends Error {
  override readonly name = 'NotRegularFileError';
}

/**
 * Copies a regular file to `target`, which must not exist (exclusive create, so nothing already
 * there, a link included, is ever opened). The source is opened without following a final
 * symbolic link and checked to be a regular file through the opened handle; `checkSize` sees its
 * size before any byte is copied and may throw. Returns the number of bytes copied.
 */
export async function copyRegularFile(source: string, target: string, checkSize: (size: number) => void = () => {}): Promise<number> {
  let input: FileHandle;
  try {
    input = await open(source, constants.O_RDONLY | NO_FOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw new NotRegularFileError(`${source} is a symbolic link`);
    throw error;
  }
  try {
    const stats = await input.stat();
    if (!stats.isFile()) throw new NotRegularFileError(`${source} is not a regular file`);
    checkSize(stats.size);
    const output = await open(target, 'wx', 0o644);
    let copied = 0;
    try {
      const buffer = Buffer.allocUnsafe(Math.min(Math.max(stats.size, 1), 1024 * 1024));
      // Copies at most the size that was checked, even if the file grows meanwhile.
      while (copied < stats.size) {
        const { bytesRead } = await input.read(buffer, 0, Math.min(buffer.length, stats.size - copied), copied);
        if (bytesRead === 0) break;
        await writeAll(output, buffer.subarray(0, bytesRead));
        copied += bytesRead;
      }
    } finally {
      await output.close();
    }
    return copied;
  } finally {
    await input.close();
  }
}

// Platforms or file systems where a handle cannot be flushed; anything else (EIO, ENOSPC) is real.
const CANNOT_SYNC = new Set(['EINVAL', 'ENOTSUP', 'EPERM', 'EBADF', 'EISDIR']);

/**
 * Flushes every file and folder under `root` to disk, deepest first. The package reader and the
 * development copy write without flushing; this runs once before a new version is renamed into
 * place, so that a crash after the install cannot leave an installed plugin with empty files.
 */
export async function syncTree(root: string): Promise<void> {
  for (const entry of await readdir(root, { withFileTypes: true })) {
    const path = join(root, entry.name);
    if (entry.isDirectory()) {
      await syncTree(path);
    } else if (entry.isFile()) {
      const handle = await open(path, 'r+');
      try {
        await handle.sync();
      } catch (error) {
        if (!CANNOT_SYNC.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
      } finally {
        await handle.close();
      }
    }
  }
  await syncFolder(root);
}
