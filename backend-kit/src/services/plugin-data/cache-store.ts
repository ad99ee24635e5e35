import { PluginHostError } from '@plughost/host-sdk/core';
import { type CacheEntry, cacheAfterWrite, cachedValue, requireTtlSeconds } from './cache-entries.js';
import type { JsonDictionary } from './flat-json.js';
import { requireDataKey, requireDataValue, serializeDataFile } from './data-values.js';
import {
  findPluginData,
  limitsOf,
  readPluginDataFile,
  withPluginData,
  writePluginDataFile,
  type PluginDataDependencies,
  type PluginDataPlace,
} from './plugin-data-file.js';

/** The answer of a cache read or write. */
export interface CacheResult {
  key: string;
  /** The value; `null` when missing or expired. */
  value: unknown;
}

/** Plugin cache: `plugins/<id>/cache.json` (`dev/<id>/cache.json` for a dev plugin; bridge `getCache`/`setCache`). */
export interface CacheStore {
  /** The value of `key`, `null` when missing or expired. 404 `PLUGIN_NOT_FOUND` when not installed. */
  get(id: string, key: unknown): Promise<CacheResult>;
  /**
   * Stores `value` under `key`, expiring after `ttlSeconds` (absent or `null`: never). Expired
   * entries of the plugin are pruned by every write. Locked per plugin and written atomically.
   */
  set(id: string, key: unknown, value: unknown, ttlSeconds?: unknown): Promise<CacheResult>;
}

const FILE = 'cache.json';

function corrupt(place: PluginDataPlace, id: string, key: string): PluginHostError {
  return new PluginHostError(
    'INVALID_ARGUMENT',
    `${place.label}/${FILE} in the launcher data folder has a malformed entry "${key}" (expected {"v": value, "e": epoch milliseconds or null}); fix or delete that file`,
    { pluginId: id },
  );
}

/** The entries of a parsed cache file; malformed entries make the whole file count as damaged. */
function entriesOf(place: PluginDataPlace, id: string, file: JsonDictionary): Map<string, CacheEntry> {
  const entries = new Map<string, CacheEntry>();
  for (const [key, raw] of Object.entries(file)) {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw) || !Object.hasOwn(raw, 'v')) throw corrupt(place, id, key);
    const { v, e } = raw as { v: unknown; e?: unknown };
    if (e !== undefined && e !== null && (typeof e !== 'number' || !Number.isFinite(e))) throw corrupt(place, id, key);
    entries.set(key, { v, e: e ?? null });
  }
  return entries;
}

/**
 * Creates the cache store over the data folder. `dependencies.now` is the clock expiry is measured
 * by (the `now` option of `createLocalBackend`; tests pass their own, so nothing waits for expiry).
 *
 * @example
 * ```ts
 * const cache = createCacheStore({ paths, pluginLock });
 * await cache.set('com.example.hello', 'feed', items, 300); // five minutes
 * ```
 */
export function createCacheStore(dependencies: PluginDataDependencies): CacheStore {
  const limits = limitsOf(dependencies);
  const now = dependencies.now ?? Date.now;

  return {
    async get(id, key) {
      const checkedKey = requireDataKey(key, limits);
      const place = await findPluginData(dependencies, id);
      const entries = entriesOf(place, id, await readPluginDataFile(dependencies, id, place, FILE));
      return { key: checkedKey, value: cachedValue(entries.get(checkedKey), now()) };
    },
    async set(id, key, value, ttlSeconds) {
      const checkedKey = requireDataKey(key, limits);
      requireDataValue(value, limits);
      const ttl = requireTtlSeconds(ttlSeconds, limits);
      return withPluginData(dependencies, id, async (place) => {
        const entries = entriesOf(place, id, await readPluginDataFile(dependencies, id, place, FILE));
        const next = cacheAfterWrite(entries, { key: checkedKey, value, ttlSeconds: ttl }, now());
        await writePluginDataFile(place, FILE, serializeDataFile(FILE, next, limits));
        return { key: checkedKey, value };
      });
    },
  };
}
