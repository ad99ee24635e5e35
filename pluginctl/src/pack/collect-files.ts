import { lstat, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { IgnoreList } from './plugignore.js';

/** The ignore file of a project. */
export const PLUGIGNORE_FILE = '.plugignore';

/** A project file that goes into the package. */
export interface ProjectFile {
  /** Archive path: relative to the project, forward slashes. */
  readonly path: string;
  /** Absolute path on disk. */
  readonly absolute: string;
}

/** What {@link collectProjectFiles} found. */
export interface CollectedFiles {
  /** Files to pack, sorted by archive path (code-unit order, the same on every platform). */
  readonly files: readonly ProjectFile[];
  /** Symbolic links that were left out (a package holds regular files only). */
  readonly skippedLinks: readonly string[];
}

/**
 * Lists the files of `root` that go into a package: everything except what `.plugignore` and the
 * fixed exclusions (`node_modules/`, `.git/`, `release/`) leave out, and `.plugignore` itself.
 * Symbolic links are not followed: they could point outside the project. `skipFolders` (project
 * paths) are left out too: `pack --out-dir` inside the project must not pack earlier packages.
 */
export async function collectProjectFiles(root: string, options: { skipFolders?: readonly string[] } = {}): Promise<CollectedFiles> {
  const skipFolders = new Set(options.skipFolders ?? []);
  const ignoreText = await readFile(join(root, PLUGIGNORE_FILE), 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    throw error;
  });
  const ignore = new IgnoreList(ignoreText);
  const files: ProjectFile[] = [];
  const skippedLinks: string[] = [];
  const walk = async (folder: string, prefix: string): Promise<void> => {
    const names = await readdir(folder);
    for (const name of names) {
      const path = prefix === '' ? name : `${prefix}/${name}`;
      const absolute = join(folder, name);
      const info = await lstat(absolute);
      if (info.isSymbolicLink()) {
        if (!ignore.ignores(path, false)) skippedLinks.push(path);
      } else if (info.isDirectory()) {
        if (!skipFolders.has(path) && !ignore.ignores(path, true)) await walk(absolute, path);
      } else if (info.isFile() && path !== PLUGIGNORE_FILE && !ignore.ignores(path, false)) {
        files.push({ path, absolute });
      }
    }
  };
  await walk(root, '');
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, skippedLinks: skippedLinks.sort() };
}
