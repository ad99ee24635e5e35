import { open, type FileHandle } from 'node:fs/promises';
import { mkdir } from '../filesystem/changes.js';
import { join } from 'node:path';
import { PluginHostError } from '@plughost/host-sdk/core';
import type { BackendLogger } from '../../http/logger.js';
import type { DataPaths } from '../../config/data-paths.js';
import { writeFileAtomic } from '../atomic-file.js';
import { isPluginInstalled } from '../installed-manifest.js';
import { currentStats, stampOf } from '../file-stamp.js';
import { StampedCache } from '../stamped-cache.js';
import type { DevPluginService } from '../dev-plugins/dev-plugin-service.js';
import type { KeyedLock } from '../keyed-lock.js';
import { isDevPlugin } from './known-plugin.js';
import { PLUGIN_DATA_LIMITS, type PluginDataLimits } from './data-limits.js';
import { emptyDictionary, parseJsonDictionary, type JsonDictionary } from './flat-json.js';

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
  const place = placeOf(dependencies, id);
  if (!place.dev) await requireInstalled(dependencies.paths, id);
  return place;
}

/** Where plugin `id`'s data would be, without checking that it is installed. */
function placeOf(dependencies: PluginDataDependencies, id: string): PluginDataPlace {
  const { paths } = dependencies;
  if (isDevPlugin(dependencies, id)) return { folder: paths.devPluginFolder(id), label: `dev/${id}`, lockKey: `dev/${id}`, dev: true };
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
  if (!(await isPluginInstalled(paths, id))) {
    throw new PluginHostError('PLUGIN_NOT_FOUND', `Plugin ${id} is not installed`, { pluginId: id });
  }
}

/**
 * Data files as last parsed, per version of the file (see `StampedCache`): a settings read costs a
 * `stat` while nothing changed the file. `null` is a file that is not a JSON object. Keys are
 * absolute paths, so one table serves every backend of the process. The dictionaries are frozen
 * all the way down: readers get a copy of the top level, and nested values are never changed in
 * place (a write replaces a whole top-level value and the file).
 */
const parsedDataFiles = new StampedCache<JsonDictionary | null>({ maxEntries: 1024, maxBytes: 32 * 1024 * 1024 });

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const nested of Object.values(value)) deepFreeze(nested);
    Object.freeze(value);
  }
  return value;
}

/** Reads and parses `path` through one handle (so the stamp kept is that of the bytes parsed); `undefined` when it is gone. */
async function parseDataFile(path: string): Promise<JsonDictionary | null | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const opened = await handle.stat();
    const dictionary = opened.isDirectory() ? null : parseJsonDictionary(await handle.readFile('utf8'));
    parsedDataFiles.set(path, stampOf(opened), deepFreeze(dictionary), opened.size);
    return dictionary;
  } finally {
    await handle.close();
  }
}

/** The parsed data file at `path`: a dictionary, `null` when it is not a JSON object, `undefined` when there is none. */
async function loadDataFile(path: string): Promise<JsonDictionary | null | undefined> {
  const current = currentStats(path, { follow: true });
  if (current === undefined) return undefined;
  const known = parsedDataFiles.get(path, current);
  return known !== undefined ? known : parseDataFile(path);
}

/**
 * Reads `<place>/<name>` as a flat JSON object; `{}` when the file does not exist. A file that
 * is not a JSON object (edited by hand, or damaged) gives 400 `INVALID_ARGUMENT` naming it: it is
 * never replaced silently, since that would throw the user's data away. The object returned is the
 * caller's to change at the top level; its nested values are frozen (they may be shared).
 */
export async function readPluginDataFile(
  dependencies: PluginDataDependencies,
  id: string,
  place: PluginDataPlace,
  name: PluginDataFileName,
): Promise<JsonDictionary> {
  const dictionary = await loadDataFile(join(place.folder, name));
  if (dictionary === undefined) return emptyDictionary();
  if (dictionary === null) {
    dependencies.logger?.warn(`${place.label}/${name} is not a JSON object; refusing to read or overwrite it`, { pluginId: id });
    throw new PluginHostError(
      'INVALID_ARGUMENT',
      `${place.label}/${name} in the launcher data folder is not a valid JSON object; fix or delete that file (it is never overwritten automatically)`,
      { pluginId: id },
    );
  }
  return Object.assign(emptyDictionary(), dictionary);
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
