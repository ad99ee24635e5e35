/**
 * Plugin settings and cache in memory (the harness writes nothing to disk), with the backend's
 * rules and answers: settings merge one key and answer the whole object; the cache answers
 * `{key, value}`, `null` when missing or expired. Keys, values, sizes, `ttlSeconds`, expiry and
 * pruning are the backend's own functions, applied here to memory instead of `cache.json`.
 */
import {
  type CacheEntry,
  type JsonDictionary,
  PLUGIN_DATA_LIMITS,
  cacheAfterWrite,
  cachedValue,
  emptyDictionary,
  requireDataKey,
  requireDataValue,
  requireTtlSeconds,
  serializeDataFile,
} from '@plughost/backend-kit';

/** The answer of a cache read or write. */
export interface CacheAnswer {
  readonly key: string;
  readonly value: unknown;
}

/** Settings and cache of every harness plugin, kept in memory for the life of the stub. */
export class MemoryPluginData {
  readonly #settings = new Map<string, JsonDictionary>();
  /** Plugin id → its cache, as the backend's `cache.json` would hold it. */
  readonly #cache = new Map<string, Readonly<Record<string, CacheEntry>>>();
  readonly #now: () => number;

  /**
   * @param initialSettings - Plugin id → the settings it starts with (`settings` of the mock file).
   * @param now - The clock of cache expiry.
   */
  constructor(initialSettings: Readonly<Record<string, Readonly<JsonDictionary>>> = {}, now: () => number = Date.now) {
    for (const [id, values] of Object.entries(initialSettings)) this.#settings.set(id, Object.assign(emptyDictionary(), structuredClone(values)));
    this.#now = now;
  }

  /** Plugin `id`'s settings, `{}` when none. */
  settings(id: string): JsonDictionary {
    return { ...(this.#settings.get(id) ?? {}) };
  }

  /** Sets one key and keeps the others; answers the whole object. */
  mergeSetting(id: string, key: unknown, value: unknown): JsonDictionary {
    const checkedKey = requireDataKey(key, PLUGIN_DATA_LIMITS);
    requireDataValue(value, PLUGIN_DATA_LIMITS);
    const next = Object.assign(emptyDictionary(), this.#settings.get(id), { [checkedKey]: value });
    // The backend refuses a write that would make settings.json too large; so does the stub.
    serializeDataFile('settings.json', next, PLUGIN_DATA_LIMITS);
    this.#settings.set(id, next);
    return { ...next };
  }

  /** The cached value of `key`, `null` when missing or expired. */
  cacheGet(id: string, key: unknown): CacheAnswer {
    const checkedKey = requireDataKey(key, PLUGIN_DATA_LIMITS);
    return { key: checkedKey, value: cachedValue(this.#cache.get(id)?.[checkedKey], this.#now()) };
  }

  /** Stores `value` under `key`, expiring after `ttlSeconds` (absent or null: never). */
  cacheSet(id: string, key: unknown, value: unknown, ttlSeconds: unknown): CacheAnswer {
    const checkedKey = requireDataKey(key, PLUGIN_DATA_LIMITS);
    requireDataValue(value, PLUGIN_DATA_LIMITS);
    const ttl = requireTtlSeconds(ttlSeconds, PLUGIN_DATA_LIMITS);
    const next = cacheAfterWrite(Object.entries(this.#cache.get(id) ?? {}), { key: checkedKey, value, ttlSeconds: ttl }, this.#now());
    // The backend refuses a write that would make cache.json too large; so does the stub.
    serializeDataFile('cache.json', next, PLUGIN_DATA_LIMITS);
    this.#cache.set(id, next);
    return { key: checkedKey, value };
  }
}
