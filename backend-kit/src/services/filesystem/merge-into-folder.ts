import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { copyFile, mkdir, rename, rm } from './changes.js';
import { dirname, join, relative, sep } from 'node:path';
import { PluginHostError } from '@plughost/host-sdk/core';
import { resolveInside } from '../../package/destination.js';

/** Files moved by {@link mergeIntoFolder}: paths relative to the destination, forward slashes. */
export type MergedFiles = readonly string[];

/**
 * Creates each missing folder between `root` and `folder` and refuses any existing step that is
 * a link or not a folder, so a link planted in the destination (`config -> /etc`) can never
 * redirect a write outside it.
 *
 * @throws PluginHostError `UNSAFE_ENTRY_PATH` naming the step.
 */
export async function ensureFolderWithoutLinks(root: string, folder: string): Promise<void> {
  await mkdir(root, { recursive: true });
  let current = root;
  for (const segment of relative(root, folder)
    .split(sep)
    .filter((part) => part !== '')) {
    current = join(current, segment);
    const entry = await lstat(current).catch(() => null);
    if (entry === null) {
      await mkdir(current).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
      });
      const created = await lstat(current);
      if (!created.isDirectory()) throw unsafe(root, current);
    } else if (!entry.isDirectory()) {
      throw unsafe(root, current);
    }
  }
}

function unsafe(root: string, at: string): PluginHostError {
  const shown = relative(root, at).split(sep).join('/');
  return new PluginHostError('UNSAFE_ENTRY_PATH', `"${shown}" in the destination is a link or a file where a folder is needed; nothing is written through it`, {
    entry: shown,
  });
}

/** Moves a file, copying when source and destination are on different file systems. */
async function moveFile(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    const staged = join(dirname(to), `.${randomBytes(6).toString('hex')}.part`);
    await copyFile(from, staged, constants.COPYFILE_EXCL);
    try {
      await rename(staged, to);
    } catch (renameError) {
      await rm(staged, { force: true });
      throw renameError;
    }
    await rm(from, { force: true });
  }
}

/**
 * Moves extracted archive files (paths as stored, already checked by the package path rule) from
 * `sourceRoot` into `destination`, replacing files of the same name. With `fromFolder` only the
 * files below that folder move, without the folder itself (`overrides/config/a.txt` →
 * `config/a.txt`). Existing links and files in the way of a folder are refused, and an existing
 * folder in the way of a file too.
 *
 * @returns the moved paths, relative to `destination`.
 * @throws PluginHostError `UNSAFE_ENTRY_PATH`; file system errors unchanged.
 */
export async function mergeIntoFolder(
  sourceRoot: string,
  files: readonly { readonly path: string }[],
  destination: string,
  options: { readonly fromFolder?: string } = {},
): Promise<MergedFiles> {
  const prefix = options.fromFolder === undefined ? '' : `${options.fromFolder.replace(/\/+$/, '')}/`;
  const moved: string[] = [];
  await mkdir(destination, { recursive: true });
  for (const file of files) {
    if (!file.path.startsWith(prefix) || file.path.length === prefix.length) continue;
    const inside = file.path.slice(prefix.length);
    const target = resolveInside(destination, inside);
    await ensureFolderWithoutLinks(destination, dirname(target));
    const existing = await lstat(target).catch(() => null);
    if (existing?.isDirectory()) throw unsafe(destination, target);
    // rename replaces a link at `target` itself; it never writes through it.
    await moveFile(resolveInside(sourceRoot, file.path), target);
    moved.push(inside);
  }
  return moved;
}
