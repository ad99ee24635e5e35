import { lstat, readdir } from 'node:fs/promises';
import { isValidPluginId } from '@plughost/host-sdk/core';
import type { BackendLogger } from '../../http/logger.js';
import type { DataPaths } from '../../config/data-paths.js';

/** What separates a plugin id from a version in a snapshot folder name (`<id>.bak-<version>`). */
export const SNAPSHOT_MARKER = '.bak-';

/** The snapshot folder name of `id` at `version`. */
export function snapshotName(id: string, version: string): string {
  return `${id}${SNAPSHOT_MARKER}${version}`;
}

/** What `plugins/` holds: installed plugin folders and snapshot folders, by plugin id. */
export interface PluginFolders {
  /** Ids with a real folder `plugins/<id>/` (sorted). */
  readonly installed: readonly string[];
  /** Snapshot folder names by plugin id. */
  readonly snapshots: ReadonlyMap<string, readonly string[]>;
}

/** True when `path` exists (a symbolic link counts as existing; it is never followed). */
export async function pathExists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** True when `path` is a folder itself, not a symbolic link to one. */
export async function isRealDirectory(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isDirectory();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** The plugin id a snapshot folder name belongs to, or `null` when it is not one. */
export function snapshotOwner(name: string): string | null {
  // A plugin id never contains `.bak-`, so the first occurrence ends the id.
  const at = name.indexOf(SNAPSHOT_MARKER);
  if (at <= 0 || at + SNAPSHOT_MARKER.length === name.length) return null;
  const id = name.slice(0, at);
  return isValidPluginId(id) ? id : null;
}

/**
 * Reads `plugins/`. Snapshot folders (`*.bak-*`) are never installed plugins. Anything that is not
 * a real folder named by a plugin id (stray files, symbolic links, names no plugin can have) is
 * skipped with a warning: a link could point the file route or an uninstall outside `plugins/`.
 */
export async function readPluginFolders(paths: DataPaths, logger: BackendLogger): Promise<PluginFolders> {
  const installed: string[] = [];
  const snapshots = new Map<string, string[]>();
  for (const entry of await readdir(paths.plugins, { withFileTypes: true })) {
    const owner = snapshotOwner(entry.name);
    if (owner !== null) {
      if (entry.isDirectory()) snapshots.set(owner, [...(snapshots.get(owner) ?? []), entry.name]);
      continue;
    }
    if (entry.name.startsWith('.')) continue;
    if (!entry.isDirectory() || !isValidPluginId(entry.name)) {
      logger.warn('Skipping an entry of the plugins folder that is not a plugin folder', { entry: entry.name });
      continue;
    }
    installed.push(entry.name);
  }
  installed.sort();
  return { installed, snapshots };
}

/** The snapshot folder names of `id`. */
export async function listSnapshots(paths: DataPaths, id: string): Promise<string[]> {
  const names: string[] = [];
  for (const entry of await readdir(paths.plugins, { withFileTypes: true })) {
    if (entry.isDirectory() && snapshotOwner(entry.name) === id) names.push(entry.name);
  }
  return names;
}
