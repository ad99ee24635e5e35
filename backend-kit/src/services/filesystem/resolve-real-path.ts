import { lstat, readlink, realpath } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';

/** Links followed before a path is declared a loop (Linux's own limit). */
const MAXIMUM_LINKS = 40;

/**
 * The real location of an absolute path that may not exist yet: `..` removed, the longest
 * existing ancestor resolved with `realpath` (every symbolic link in it followed), and the
 * missing rest appended. A dangling symbolic link is followed to where it points, so writing
 * through it is checked against its target, not its name.
 *
 * Every authorization check compares this, never the caller's spelling, and the operation then
 * uses this path too, so the checked path and the touched path are the same.
 */
export async function resolveRealPath(absolutePath: string): Promise<string> {
  return resolveFrom(resolve(absolutePath), 0);
}

async function resolveFrom(path: string, links: number): Promise<string> {
  try {
    return await realpath(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
  }
  const parent = dirname(path);
  if (parent === path) return path;
  // The entry itself may exist as a link to a missing target.
  const entry = await lstat(path).catch(() => null);
  if (entry?.isSymbolicLink()) {
    if (links >= MAXIMUM_LINKS) throw Object.assign(new Error(`Too many symbolic links: ${path}`), { code: 'ELOOP' });
    const target = await readlink(path);
    return resolveFrom(resolve(await resolveFrom(parent, links), target), links + 1);
  }
  return join(await resolveFrom(parent, links), basename(path));
}
