import { randomBytes } from 'node:crypto';
import { type FileHandle, open, readFile } from 'node:fs/promises';
import { mkdir, rename, rm } from './filesystem/changes.js';
import { basename, dirname, join } from 'node:path';

/**
 * Writes `data` to `path` so that readers see either the old file or the whole new one, never a
 * part: write a temporary file beside it, flush it to disk, rename it over the target, then flush
 * the folder so the rename itself survives a crash. Parent folders are created.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const folder = dirname(path);
  await mkdir(folder, { recursive: true });
  const temporary = join(folder, `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temporary, 'wx', 0o600);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temporary, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  await syncFolder(folder);
}

/** Flushes a folder's entries (renames, creations) to disk; a no-op where folders cannot be opened. */
export async function syncFolder(folder: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(folder, 'r');
    await handle.sync();
  } catch {
    // Windows cannot open folders for syncing; NTFS journals renames itself.
  } finally {
    await handle?.close();
  }
}

/** Writes `value` as pretty JSON with {@link writeFileAtomic}. */
export async function writeJsonAtomic(path: string, value: unknown): Promise<void> {
  await writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`);
}

/**
 * Reads a JSON file, or returns `fallback` when it does not exist. A file that exists but is not
 * JSON is an error (it is never silently replaced). The result is `unknown`: callers validate it,
 * since anything on disk may have been edited by hand.
 */
export async function readJsonFile(path: string, fallback: unknown): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return fallback;
    throw error;
  }
  return JSON.parse(text) as unknown;
}
