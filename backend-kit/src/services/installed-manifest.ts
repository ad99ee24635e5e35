import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { parseManifest, type PluginManifest } from '@plughost/host-sdk/core';
import type { DataPaths } from '../config/data-paths.js';
import { currentStats, stampOf } from './file-stamp.js';
import { StampedCache } from './stamped-cache.js';

/**
 * The installed manifests as last parsed, per version of `manifest.json` (see `StampedCache`):
 * `null` for a file that is not a valid manifest of its folder's id. Keys are absolute paths, so
 * one table serves every backend of the process. The objects kept here are never handed out:
 * readers get a copy.
 */
const installedManifests = new StampedCache<PluginManifest | null>({ maxEntries: 4096 });

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}

/**
 * The kept manifest of plugin `id` (not a copy), or `null`. Asking again costs one `stat` until an
 * install, uninstall or edit replaces the file; the plugin list, the settings, cache and file
 * routes ask on every request.
 */
async function keptManifest(paths: DataPaths, id: string): Promise<PluginManifest | null> {
  const path = join(paths.pluginFolder(id), 'manifest.json');
  const current = currentStats(path, { follow: true });
  if (current === undefined) return null;
  const known = installedManifests.get(path, current);
  if (known !== undefined) return known;
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
  try {
    // The stamp and the bytes of one version: both from the handle.
    const opened = await handle.stat();
    const result = parseManifest(await handle.readFile());
    const manifest = result.ok && result.manifest.id === id ? result.manifest : null;
    installedManifests.set(path, stampOf(opened), manifest);
    return manifest;
  } finally {
    await handle.close();
  }
}

/**
 * The manifest of the installed plugin `id`, or `null` when it is not installed (or its manifest
 * no longer validates, which only a hand-edited folder can cause). A fresh object, the caller's to
 * change.
 */
export async function readInstalledManifest(paths: DataPaths, id: string): Promise<PluginManifest | null> {
  const manifest = await keptManifest(paths, id);
  return manifest === null ? null : structuredClone(manifest);
}

/** True when plugin `id` is installed: `readInstalledManifest(paths, id) !== null`, without the copy. */
export async function isPluginInstalled(paths: DataPaths, id: string): Promise<boolean> {
  return (await keptManifest(paths, id)) !== null;
}
