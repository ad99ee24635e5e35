import { randomBytes } from 'node:crypto';
import { lstat, open } from 'node:fs/promises';
import { mkdir, rename, rm } from './changes.js';
import { basename, dirname, join } from 'node:path';
import { PluginHostError } from '@plughost/host-sdk/core';
import { fileSystemError } from './file-system-error.js';

/**
 * Writes `data` to a resolved path: parent folders are created, the bytes go to a temporary
 * file beside the target, which is then renamed over it, so readers see the old file or the
 * whole new one. The rename replaces a symbolic link swapped in after the check instead of
 * writing through it. An existing file keeps its permission bits; a folder at the path is 400
 * `INVALID_ARGUMENT`.
 */
export async function writeFileReplacing(path: string, data: Uint8Array): Promise<void> {
  const folder = dirname(path);
  try {
    await mkdir(folder, { recursive: true });
  } catch (error) {
    throw fileSystemError(error, folder);
  }
  const existing = await lstat(path).catch(() => null);
  if (existing?.isDirectory()) throw new PluginHostError('INVALID_ARGUMENT', `${path} is a folder, not a file`);
  const mode = existing?.isFile() ? existing.mode & 0o7777 : 0o666;
  const temporary = join(folder, `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await open(temporary, 'wx', mode);
    try {
      await handle.writeFile(data);
      await handle.sync();
      // `open` applies the umask; an existing file's bits are restored exactly.
      if (existing?.isFile()) await handle.chmod(mode);
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw fileSystemError(error, path);
  }
}
