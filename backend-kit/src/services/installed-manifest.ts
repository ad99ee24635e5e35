import { open, readFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { parseManifest, type PluginManifest } from '@plughost/host-sdk/core';
import type { DataPaths } from '../config/data-paths.js';
import { currentStats, stampOf } from './file-stamp.js';
import { StampedCache } from './stamped-cache.js';

/**
 * The manifest of the installed plugin `id`, or `null` when it is not installed (or its manifest
 * no longer validates, which only a hand-edited folder can cause).
 */
export async function readInstalledManifest(paths: DataPaths, id: string): Promise<PluginManifest | null> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(join(paths.pluginFolder(id), 'manifest.json'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const result = parseManifest(bytes);
  return result.ok && result.manifest.id === id ? result.manifest : null;
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}

/**
 * Whether each manifest path held a valid manifest of its plugin, per version of the file. Keys are
 * absolute paths, so one table serves every backend of the process.
 */
const installedChecks = new StampedCache<boolean>({ maxEntries: 4096 });

/**
 * True when plugin `id` is installed: what `readInstalledManifest(paths, id) !== null` says, for the
 * routes that ask it on every request (settings, cache, files). The answer is kept per version of
 * `manifest.json` (see `StampedCache`), so asking again costs one `stat` until an install,
 * uninstall or edit replaces the file.
 */
export async function isPluginInstalled(paths: DataPaths, id: string): Promise<boolean> {
  const path = join(paths.pluginFolder(id), 'manifest.json');
  const current = currentStats(path, { follow: true });
  if (current === undefined) return false;
  const known = installedChecks.get(path, current);
  if (known !== undefined) return known;
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
  try {
    // The stamp and the bytes of one version: both from the handle.
    const opened = await handle.stat();
    const result = parseManifest(await handle.readFile());
    const installed = result.ok && result.manifest.id === id;
    installedChecks.set(path, stampOf(opened), installed);
    return installed;
  } finally {
    await handle.close();
  }
}
