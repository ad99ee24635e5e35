import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PluginHostError } from '@plughost/host-sdk/core';
import type { BackendLogger } from '../../http/logger.js';
import type { DataPaths } from '../../config/data-paths.js';
import { writeFileAtomic } from '../atomic-file.js';
import { readInstalledManifest } from '../installed-manifest.js';
import type { KeyedLock } from '../keyed-lock.js';
import { PLUGIN_DATA_LIMITS, type PluginDataLimits } from './data-limits.js';
import { parseJsonDictionary, type JsonDictionary } from './flat-json.js';

/** The two files the backend keeps in a plugin folder. */
export type PluginDataFileName = 'settings.json' | 'cache.json';

/**
 * What the settings and cache stores need; the backend hands them its paths and plugin lock, tests
 * add a clock or limits.
 */
export interface PluginDataDependencies {
  readonly paths: DataPaths;
  /** The per-plugin lock shared with installs, so a write never lands in a folder being replaced. */
  readonly pluginLock: KeyedLock;
  readonly logger?: BackendLogger;
  /** Limits; default {@link PLUGIN_DATA_LIMITS}. */
  readonly limits?: PluginDataLimits;
  /** The clock, in epoch milliseconds; default `Date.now`. */
  readonly now?: () => number;
}

/** Throws 404 `PLUGIN_NOT_FOUND` unless `plugins/<id>/manifest.json` is a valid manifest of `id`. */
export async function requireInstalled(paths: DataPaths, id: string): Promise<void> {
  if ((await readInstalledManifest(paths, id)) === null) {
    throw new PluginHostError('PLUGIN_NOT_FOUND', `Plugin ${id} is not installed`, { pluginId: id });
  }
}

/**
 * Reads `plugins/<id>/<name>` as a flat JSON object; `{}` when the file does not exist. A file that
 * is not a JSON object (edited by hand, or damaged) gives 400 `INVALID_ARGUMENT` naming it: it is
 * never replaced silently, since that would throw the user's data away.
 */
export async function readPluginDataFile(dependencies: PluginDataDependencies, id: string, name: PluginDataFileName): Promise<JsonDictionary> {
  const path = join(dependencies.paths.pluginFolder(id), name);
  let text: string | null;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return Object.create(null) as JsonDictionary;
    if (code !== 'EISDIR') throw error;
    text = null;
  }
  const dictionary = text === null ? null : parseJsonDictionary(text);
  if (dictionary === null) {
    dependencies.logger?.warn(`plugins/${id}/${name} is not a JSON object; refusing to read or overwrite it`, { pluginId: id });
    throw new PluginHostError(
      'INVALID_ARGUMENT',
      `plugins/${id}/${name} in the launcher data folder is not a valid JSON object; fix or delete that file (it is never overwritten automatically)`,
      { pluginId: id },
    );
  }
  return dictionary;
}

/** Writes `plugins/<id>/<name>` atomically (temporary file, flush, rename, folder flush). */
export async function writePluginDataFile(paths: DataPaths, id: string, name: PluginDataFileName, text: string): Promise<void> {
  await writeFileAtomic(join(paths.pluginFolder(id), name), text);
}

/** The limits in effect. */
export function limitsOf(dependencies: PluginDataDependencies): PluginDataLimits {
  return dependencies.limits ?? PLUGIN_DATA_LIMITS;
}
