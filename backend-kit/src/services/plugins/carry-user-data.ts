import { lstat } from 'node:fs/promises';
import { rm } from '../filesystem/changes.js';
import { join } from 'node:path';
import { copyRegularFile } from './file-copy.js';

/** The files of a plugin folder that hold the user's data rather than the package's. */
export const USER_DATA_FILES = ['settings.json', 'cache.json'] as const;

/**
 * Makes the user data files of folder `to` those of folder `from`: each one `from` has is copied,
 * and each one it lacks is removed from `to` (a rollback target may hold stale copies). Only
 * regular files are carried; a symbolic link in their place was not written by the backend and is
 * never followed.
 */
export async function carryUserData(from: string, to: string): Promise<void> {
  for (const name of USER_DATA_FILES) {
    const target = join(to, name);
    // rm removes a link itself, never what it points to.
    await rm(target, { force: true });
    const source = join(from, name);
    let isFile: boolean;
    try {
      isFile = (await lstat(source)).isFile();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    if (isFile) await copyRegularFile(source, target);
  }
}
