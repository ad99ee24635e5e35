import type { JsonDictionary } from './flat-json.js';
import { requireDataKey, requireDataValue, serializeDataFile } from './data-values.js';
import { findPluginData, limitsOf, readPluginDataFile, withPluginData, writePluginDataFile, type PluginDataDependencies } from './plugin-data-file.js';

/**
 * Plugin settings: `plugins/<id>/settings.json` (`dev/<id>/settings.json` for a dev plugin), a
 * flat JSON object (bridge `getSettings`/`setSettings`).
 */
export interface SettingsStore {
  /** The settings object, `{}` when none were written. 404 `PLUGIN_NOT_FOUND` when not installed. */
  read(id: string): Promise<JsonDictionary>;
  /**
   * Sets one key (any JSON value) and keeps every other key; resolves the whole object after the
   * merge. Serialized per plugin and written atomically, so concurrent writers lose nothing and a
   * crash leaves either the old or the new file.
   */
  merge(id: string, key: unknown, value: unknown): Promise<JsonDictionary>;
}

const FILE = 'settings.json';

/**
 * Creates the settings store over the data folder.
 *
 * @example
 * ```ts
 * const settings = createSettingsStore({ paths: dataPaths(dataDirectory), pluginLock: new KeyedLock() });
 * await settings.merge('com.example.hello', 'theme', { dark: true });
 * ```
 */
export function createSettingsStore(dependencies: PluginDataDependencies): SettingsStore {
  const limits = limitsOf(dependencies);
  return {
    async read(id) {
      // No lock: writes replace the file by rename, so a reader sees the old or the new one whole.
      return readPluginDataFile(dependencies, id, await findPluginData(dependencies, id), FILE);
    },
    async merge(id, key, value) {
      const checkedKey = requireDataKey(key, limits);
      requireDataValue(value, limits);
      return withPluginData(dependencies, id, async (place) => {
        const settings = await readPluginDataFile(dependencies, id, place, FILE);
        settings[checkedKey] = value;
        await writePluginDataFile(place, FILE, serializeDataFile(FILE, settings, limits));
        return settings;
      });
    },
  };
}
