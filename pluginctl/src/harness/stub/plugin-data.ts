/**
 * Plugin settings and cache in memory (the harness writes nothing to disk), with the backend's
 * rules and answers: settings merge one key and answer the whole object; the cache answers
 * `{key, value}`, `null` when missing or expired; keys, values and sizes are checked by the
 * backend's own checks.
 */
import { PLUGIN_DATA_LIMITS, requireDataKey, requireDataValue, serializeDataFile } from '@plughost/backend-kit';
import { PluginHostError } from '@plughost/host-sdk/core';

type Dictionary = Record<string, unknown>;

interface CacheEntry {
  readonly v: unknown;
  /** Expiry in epoch milliseconds, or `null`. */
  readonly e: number | null;
}

/** The answer of a cache read or write. */
export interface CacheAnswer {
  readonly key: string;
  readonly value: unknown;
}

function emptyDictionary(): Dictionary {
  return Object.create(null) as Dictionary;
}

function requireTtl(ttlSeconds: unknown): number | null {
  if (ttlSeconds === undefined || ttlSeconds === null) return null;
  if (typeof ttlSeconds !== 'number' || !Number.isFinite(ttlSeconds) || ttlSeconds <= 0) {
    throw new PluginHostError('INVALID_ARGUMENT', '"ttlSeconds" must be a positive number of seconds', { field: 'ttlSeconds' });
  }
  if (ttlSeconds > PLUGIN_DATA_LIMITS.maxTtlSeconds) {
    throw new PluginHostError('INVALID_ARGUMENT', `"ttlSeconds" exceeds the ttl limit of ${PLUGIN_DATA_LIMITS.maxTtlSeconds} seconds`, {
      limit: 'ttl',
      maximum: PLUGIN_DATA_LIMITS.maxTtlSeconds,
    });
  }
  return ttlSeconds;
}

/** Settings and cache of every harness plugin, kept in memory for the life of the stub. */
export class MemoryPluginData {
  readonly #settings = new Map<string, Dictionary>();
  readonly #cache = new Map<string, Map<string, CacheEntry>>();
  readonly #now: () => number;

  /**
   * @param initialSettings - Plugin id → the settings it starts with (`settings` of the mock file).
   * @param now - The clock of cache expiry.
   */
  constructor(initialSettings: Readonly<Record<string, Readonly<Dictionary>>> = {}, now: () => number = Date.now) {
    for (const [id, values] of Object.entries(initialSettings)) this.#settings.set(id, Object.assign(emptyDictionary(), structuredClone(values)));
    this.#now = now;
  }

  /** Plugin `id`'s settings, `{}` when none. */
  settings(id: string): Dictionary {
    return { ...(this.#settings.get(id) ?? {}) };
  }

  /** Sets one key and keeps the others; answers the whole object. */
  mergeSetting(id: string, key: unknown, value: unknown): Dictionary {
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
    const entry = this.#cache.get(id)?.get(checkedKey);
    return { key: checkedKey, value: entry && (entry.e === null || entry.e > this.#now()) ? entry.v : null };
  }

  /** Stores `value` under `key`, expiring after `ttlSeconds` (absent or null: never). */
  cacheSet(id: string, key: unknown, value: unknown, ttlSeconds: unknown): CacheAnswer {
    const checkedKey = requireDataKey(key, PLUGIN_DATA_LIMITS);
    requireDataValue(value, PLUGIN_DATA_LIMITS);
    const ttl = requireTtl(ttlSeconds);
    const time = this.#now();
    const entries = new Map([...(this.#cache.get(id) ?? new Map<string, CacheEntry>())].filter(([, entry]) => entry.e === null || entry.e > time));
    entries.set(checkedKey, { v: value, e: ttl === null ? null : time + Math.ceil(ttl * 1000) });
    serializeDataFile('cache.json', Object.fromEntries(entries), PLUGIN_DATA_LIMITS);
    this.#cache.set(id, entries);
    return { key: checkedKey, value };
  }
}
