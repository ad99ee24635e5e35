import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseManifest, type PluginManifest } from '@plughost/host-sdk/core';
import type { DataPaths } from '../config/data-paths.js';

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
