import { constants, type Stats } from 'node:fs';
import { lstat, open, realpath, type FileHandle } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { isBackendWrittenFile } from './plugin-file-path.js';

/** An open plugin file, checked to be a regular file inside its plugin folder. */
export interface OpenedPluginFile {
  /** Open for reading; the caller closes it (or hands it to a stream that does). */
  readonly handle: FileHandle;
  /** `fstat` of the open handle: what is actually served. */
  readonly stats: Stats;
}

// Errors that mean "there is nothing servable at this path", answered 404. Anything else (file
// descriptor exhaustion, I/O errors) is a server fault and is left to the error handler.
const NOT_SERVABLE = new Set(['ENOENT', 'ENOTDIR', 'EISDIR', 'ELOOP', 'EACCES', 'EPERM', 'ENAMETOOLONG', 'EINVAL']);

// O_NOFOLLOW makes open() fail on a symbolic link swapped in after the checks (POSIX only;
// Windows has no such flag, and there the inode comparison below catches a swap).
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0);

function isNotServable(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' && NOT_SERVABLE.has(code);
}

function isInside(folder: string, path: string): boolean {
  return path.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}

async function checkedStats(folder: string, relativePath: string): Promise<{ path: string; stats: Stats } | null> {
  const folderStats = await lstat(folder);
  if (folderStats.isSymbolicLink() || !folderStats.isDirectory()) return null;
  const segments = relativePath.split('/');
  let path = folder;
  let stats: Stats = folderStats;
  for (const [index, segment] of segments.entries()) {
    path = join(path, segment);
    stats = await lstat(path);
    // Packages cannot contain symbolic links, so any link here was made by hand or by an attacker
    // with local access; none is followed, whether it points inside or outside.
    if (stats.isSymbolicLink()) return null;
    const last = index === segments.length - 1;
    if (last ? !stats.isFile() : !stats.isDirectory()) return null;
  }
  // Belt and braces: resolve every link and junction the walk may not have seen (a Windows 8.3
  // short name, a link in a parent of the data folder) and check containment and the reserved
  // names again on the real path.
  const realFolder = await realpath(folder);
  const realFile = await realpath(path);
  if (!isInside(realFolder, realFile)) return null;
  if (isBackendWrittenFile(relative(realFolder, realFile).split(sep).join('/'))) return null;
  return { path, stats };
}

/**
 * Opens `relativePath` (a package path already checked by `parsePluginFilePath`) inside the plugin
 * folder `folder`, or resolves `null` when there is nothing servable: missing, a folder, a special
 * file, a symbolic link anywhere on the way, or a real path outside the folder.
 */
export async function openPluginFile(folder: string, relativePath: string): Promise<OpenedPluginFile | null> {
  let handle: FileHandle | undefined;
  try {
    const checked = await checkedStats(folder, relativePath);
    if (!checked) return null;
    handle = await open(checked.path, OPEN_FLAGS);
    const stats = await handle.stat();
    // The file opened must be the one checked: a rename between the checks and open() is refused.
    if (!stats.isFile() || stats.ino !== checked.stats.ino || stats.dev !== checked.stats.dev) {
      const swapped = handle;
      handle = undefined;
      await swapped.close();
      return null;
    }
    return { handle, stats };
  } catch (error) {
    await handle?.close();
    if (isNotServable(error)) return null;
    throw error;
  }
}
