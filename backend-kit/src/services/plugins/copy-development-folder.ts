import { mkdtemp, readdir, realpath, stat } from 'node:fs/promises';
import { mkdir, rm } from '../filesystem/changes.js';
import { isAbsolute, join, relative, sep } from 'node:path';
import { PACKAGE_PATH_PROBLEM_TEXT, PluginHostError, findPackagePathProblem, packagePathCollisionKey } from '@plughost/host-sdk/core';
import type { PackageLimits } from '../../package/limits.js';
import { INVALID_PACKAGE_MESSAGE, invalidPackage, tooLarge, unsafeEntry } from '../../package/package-errors.js';
import { NotRegularFileError, copyRegularFile } from './file-copy.js';
import { USER_DATA_FILES } from './carry-user-data.js';

/** A development folder copied into `backend/tmp/`. */
export interface CopiedFolder {
  /** The copy (absolute), under the given work directory. */
  readonly directory: string;
  /** Every file copied, as package paths (forward slashes), for manifest validation. */
  readonly files: ReadonlySet<string>;
}

function isInside(parent: string, child: string): boolean {
  const path = relative(parent, child);
  return path === '' || (!isAbsolute(path) && path !== '..' && !path.startsWith(`..${sep}`));
}

async function resolveSource(sourceDir: string, dataDirectory: string): Promise<string> {
  const invalid = (message: string): PluginHostError => new PluginHostError('INVALID_ARGUMENT', message, { field: 'sourceDir' });
  if (!isAbsolute(sourceDir)) throw invalid('sourceDir must be an absolute path');
  let root: string;
  try {
    root = await realpath(sourceDir);
  } catch {
    throw invalid('sourceDir does not exist');
  }
  if (!(await stat(root)).isDirectory()) throw invalid('sourceDir is not a directory');
  const data = await realpath(dataDirectory);
  // The data folder holds the backend's records and other plugins' data: copying any of it into a
  // plugin folder would let the file route serve it.
  if (isInside(data, root) || isInside(root, data)) throw invalid("sourceDir must be outside the launcher's data folder");
  return root;
}

class FolderCopy {
  readonly #files = new Set<string>();
  readonly #keys = new Set<string>();
  #entries = 0;
  #total = 0;

  constructor(
    readonly source: string,
    readonly target: string,
    readonly limits: PackageLimits,
  ) {}

  get files(): ReadonlySet<string> {
    return this.#files;
  }

  /** Applies the package rules to one path before anything is copied for it. */
  #admit(path: string): void {
    const problem = findPackagePathProblem(path);
    if (problem) throw unsafeEntry(path, PACKAGE_PATH_PROBLEM_TEXT[problem]);
    const nameBytes = Buffer.byteLength(path);
    if (nameBytes > this.limits.maxEntryNameBytes) {
      throw tooLarge('maxEntryNameBytes', this.limits.maxEntryNameBytes, nameBytes, `the name length of ${JSON.stringify(path)}`, path);
    }
    if (++this.#entries > this.limits.maxEntries) {
      throw tooLarge('maxEntries', this.limits.maxEntries, this.#entries, 'the number of files and folders');
    }
    // Two names that are one file on Windows or macOS would install differently per platform.
    const key = packagePathCollisionKey(path);
    if (this.#keys.has(key)) throw invalidPackage(`${JSON.stringify(path)} collides with another name on case-insensitive file systems`, { entry: path });
    this.#keys.add(key);
    if (!path.includes('/') && (USER_DATA_FILES as readonly string[]).includes(key)) {
      throw invalidPackage(`the folder must not contain ${JSON.stringify(path)} at its root; the launcher keeps its own there`, { entry: path });
    }
  }

  #checkSize(path: string, size: number): void {
    if (path === 'manifest.json' && size > this.limits.maxMetadataFileBytes) {
      throw tooLarge('maxMetadataFileBytes', this.limits.maxMetadataFileBytes, size, 'manifest.json', path);
    }
    if (size > this.limits.maxEntryUncompressedBytes) {
      throw tooLarge('maxEntryUncompressedBytes', this.limits.maxEntryUncompressedBytes, size, JSON.stringify(path), path);
    }
    this.#total += size;
    if (this.#total > this.limits.maxTotalUncompressedBytes) {
      throw tooLarge('maxTotalUncompressedBytes', this.limits.maxTotalUncompressedBytes, this.#total, 'the total size');
    }
  }

  async copy(folder = ''): Promise<void> {
    const from = folder === '' ? this.source : join(this.source, ...folder.split('/'));
    // A folder swapped for a link after it was listed would lead outside; its real path shows it.
    if ((await realpath(from)) !== from) throw unsafeEntry(folder, 'is reached through a symbolic link');
    const entries = await readdir(from, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const path = folder === '' ? entry.name : `${folder}/${entry.name}`;
      this.#admit(path);
      const to = join(this.target, ...path.split('/'));
      if (entry.isSymbolicLink()) throw unsafeEntry(path, 'is a symbolic link; a development folder may hold only files and folders');
      if (entry.isDirectory()) {
        await mkdir(to);
        await this.copy(path);
      } else if (entry.isFile()) {
        try {
          await copyRegularFile(join(from, entry.name), to, (size) => this.#checkSize(path, size));
        } catch (error) {
          if (error instanceof NotRegularFileError) throw unsafeEntry(path, 'is not a regular file');
          throw error;
        }
        this.#files.add(path);
      } else {
        throw unsafeEntry(path, 'is not a regular file or folder');
      }
    }
  }
}

/**
 * Copies a development folder (`POST /api/plugins/install`) into a fresh folder under
 * `workDirectory`, with the rules of packages: every path must pass `findPackagePathProblem`,
 * names must not collide on case-insensitive systems, no root `settings.json` or `cache.json`,
 * the package size limits apply, and symbolic links or special files anywhere inside refuse the
 * folder (nothing outside it is ever read). The source is only read.
 *
 * @throws PluginHostError `INVALID_ARGUMENT` (`sourceDir` not absolute, missing, not a folder, or
 *   inside the data folder), `UNSAFE_ENTRY_PATH`, `INVALID_PACKAGE` (also `Invalid plugin package`
 *   when there is no `manifest.json`), `PACKAGE_TOO_LARGE`.
 */
export async function copyDevelopmentFolder(
  sourceDir: string,
  options: { workDirectory: string; dataDirectory: string; limits: PackageLimits },
): Promise<CopiedFolder> {
  const source = await resolveSource(sourceDir, options.dataDirectory);
  const directory = await mkdtemp(join(options.workDirectory, 'plugin-stage-'));
  try {
    const copy = new FolderCopy(source, directory, options.limits);
    await copy.copy();
    if (!copy.files.has('manifest.json')) {
      throw new PluginHostError('INVALID_PACKAGE', `${INVALID_PACKAGE_MESSAGE}: sourceDir has no manifest.json`, { entry: 'manifest.json' });
    }
    return { directory, files: copy.files };
  } catch (error) {
    await rm(directory, { recursive: true, force: true, maxRetries: 3 });
    throw error;
  }
}
