import { lstat } from 'node:fs/promises';
import { unlink } from './changes.js';
import { PluginHostError } from '@plughost/host-sdk/core';
import { fileSystemError } from './file-system-error.js';

/**
 * Deletes the file (or symbolic link, never its target) at a path whose parent is resolved.
 * Files only: a folder is 400 `INVALID_ARGUMENT`; nothing there is 404 `FS_FILE_NOT_FOUND`.
 */
export async function deleteFile(path: string): Promise<void> {
  try {
    const entry = await lstat(path);
    if (entry.isDirectory()) throw new PluginHostError('INVALID_ARGUMENT', `${path} is a folder; only files can be deleted`);
    await unlink(path);
  } catch (error) {
    throw fileSystemError(error, path);
  }
}
