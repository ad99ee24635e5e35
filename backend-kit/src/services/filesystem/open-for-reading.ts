import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { PluginHostError } from '@plughost/host-sdk/core';
import { fileSystemError } from './file-system-error.js';

/**
 * Opens a resolved path for reading. `O_NOFOLLOW` (where the system has it) makes the open fail
 * if the last name was swapped for a symbolic link after the authorization check. A folder is
 * 400 `INVALID_ARGUMENT`; a missing file 404 `FS_FILE_NOT_FOUND`.
 */
export async function openForReading(path: string): Promise<{ handle: FileHandle; size: number }> {
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    throw fileSystemError(error, path);
  }
  const stats = await handle.stat();
  if (!stats.isFile()) {
    await handle.close();
    throw new PluginHostError('INVALID_ARGUMENT', `${path} is not a regular file`);
  }
  return { handle, size: stats.size };
}
