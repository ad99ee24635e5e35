import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PluginHostError } from '@plughost/host-sdk/core';
import type { BackendLogger } from '../../http/logger.js';
import type { DataPaths } from '../../config/data-paths.js';
import { writeFileAtomic } from '../atomic-file.js';
import { readInstalledManifest } from '../installed-manifest.js';
import type { DevPluginService } from '../dev-plugins/dev-plugin-service.js';
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
  /**
   * Dev plugins (development mode): while `has(id)`, plugin `id`'s settings and cache live in
   * `dev/<id>/`, apart from an installed plugin of the same id (decisions section 10). Default none.
   */
  readonly devPlugins?: Pick<DevPluginService, 'has'> | undefined;
}

/** Where one plugin's data files live. */
export interface PluginDataPlace {
  readonly folder: string;
  /** The folder as the user finds it in the data folder (`plugins/<id>` or `dev/<id>`), for messages. */
  readonly label: string;
  /** The lock key guarding it: the plugin's id (shared with installs), or `dev/<id>` for a dev plugin. */
  readonly lockKey: string;
  readonly dev: boolean;
}

/**
 * Where plugin `id`'s settings and cache are: `dev/<id>/` for a dev plugin, else `plugins/<id>/`
 * of the installed plugin.
 *
 * @throws PluginHostError `PLUGIN_NOT_FOUND` when it is neither.
 */
export async function findPluginData(dependencies: PluginDataDependencies, id: string): Promise<PluginDataPlace> {
  const { paths } = dependencies;
  if (dependencies.devPlugins?.has(id) === true) return { folder: paths.devPluginFolder(id), label: `dev/${id}`, lockKey: `dev/${id}`, dev: true };
  await requireInstalled(paths, id);
  return { folder: paths.pluginFolder(id), label: `plugins/${id}`, lockKey: id, dev: false };
}

/**
 * Runs `work` on plugin `id`'s data place while holding its lock, so writers of one plugin never
 * interleave and a write never lands in a folder an install is replacing.
 */
export async function withPluginData<T>(dependencies: PluginDataDependencies, id: string, work: (place: PluginDataPlace) => Promise<T>): Promise<T> {
  const place = await findPluginData(dependencies, id);
  return dependencies.pluginLock.run(place.lockKey, async () => {
    // Checked again under the lock: an uninstall holding it may have just removed the folder.
    if (!place.dev) await requireInstalled(dependencies.paths, id);
    return work(place);
  });
}

/** Throws 404 `PLUGIN_NOT_FOUND` unless `plugins/<id>/manifest.json` is a valid manifest of `id`. */
export async function requireInstalled(paths: DataPaths, id: string): Promise<void> {
  if ((await readInstalledManifest(paths, id)) === null) {
    throw new PluginHostError('PLUGIN_NOT_FOUND', `Plugin ${id} is not installed`, { pluginId: id });
  }
}

/**
 * Reads `<place>/<name>` as a flat JSON object; `{}` when the file does not exist. A file that
 * is not a JSON object (edited by hand, or damaged) gives 400 `INVALID_ARGUMENT` naming it: it is
 * never replaced silently, since that would throw the user's data away.
 */
export async function readPluginDataFile(
  dependencies: PluginDataDependencies,
  id: string,
  place: PluginDataPlace,
  name: PluginDataFileName,
): Promise<JsonDictionary> {
  const path = join(place.folder, name);
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
    dependencies.logger?.warn(`${place.label}/${name} is not a JSON object; refusing to read or overwrite it`, { pluginId: id });
    throw new PluginHostError(
      'INVALID_ARGUMENT',
      `${place.label}/${name} in the launcher data folder is not a valid JSON object; fix or delete that file (it is never overwritten automatically)`,
      { pluginId: id },
    );
  }
  return dictionary;
}

/** Writes `<place>/<name>` atomically (temporary file, flush, rename, folder flush); a dev plugin's folder is made on its first write. */
export async function writePluginDataFile(place: PluginDataPlace, name: PluginDataFileName, text: string): Promise<void> {
  if (place.dev) await mkdir(place.folder, { recursive: true });
  await writeFileAtomic(join(place.folder, name), text);
}

/** The limits in effect. */
export function limitsOf(dependencies: PluginDataDependencies): PluginDataLimits {
  return dependencies.limits ?? PLUGIN_DATA_LIMITS;
}
