/**
 * The cache's rules as plain functions (`cache-entries.ts`), shared by the backend's cache store
 * (tested on disk in cache-store.test.ts and cache.test.ts) and pluginctl's harness stub
 * (tests/unit/pluginctl/harness-stub-data.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { PLUGIN_DATA_LIMITS } from '../../../../backend-kit/src/services/plugin-data/data-limits.js';
import {
  cacheAfterWrite,
  cachedValue,
  isLiveCacheEntry,
  requireTtlSeconds,
  type CacheEntry,
} from '../../../../backend-kit/src/services/plugin-data/cache-entries.js';

const T0 = Date.parse('2030-01-01T00:00:00Z');

function refusal(ttlSeconds: unknown): unknown {
  try {
    return requireTtlSeconds(ttlSeconds, PLUGIN_DATA_LIMITS);
  } catch (error) {
    return error;
  }
}

describe('cache entry rules', () => {
  it('takes no ttl as never expiring and a positive ttl up to the limit', () => {
    expect(requireTtlSeconds(undefined, PLUGIN_DATA_LIMITS)).toBeNull();
    expect(requireTtlSeconds(null, PLUGIN_DATA_LIMITS)).toBeNull();
    expect(requireTtlSeconds(0.25, PLUGIN_DATA_LIMITS)).toBe(0.25);
    expect(requireTtlSeconds(PLUGIN_DATA_LIMITS.maxTtlSeconds, PLUGIN_DATA_LIMITS)).toBe(PLUGIN_DATA_LIMITS.maxTtlSeconds);
  });

  it('refuses other ttls, naming the field or the limit', () => {
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, '60']) {
      expect(refusal(bad)).toMatchObject({
        code: 'INVALID_ARGUMENT',
        message: '"ttlSeconds" must be a positive number of seconds',
        details: { field: 'ttlSeconds' },
      });
    }
    expect(requireTtlSeconds.bind(null, 61, { ...PLUGIN_DATA_LIMITS, maxTtlSeconds: 60 })).toThrow('"ttlSeconds" exceeds the ttl limit of 60 seconds');
  });

  it('reads an entry until the millisecond it expires', () => {
    const entry: CacheEntry = { v: 'x', e: T0 };
    expect(isLiveCacheEntry(entry, T0 - 1)).toBe(true);
    expect(isLiveCacheEntry(entry, T0)).toBe(false);
    expect(cachedValue(entry, T0 - 1)).toBe('x');
    expect(cachedValue(entry, T0)).toBeNull();
    expect(cachedValue({ v: 'forever', e: null }, Number.MAX_SAFE_INTEGER)).toBe('forever');
    expect(cachedValue(undefined, T0)).toBeNull();
  });

  it('prunes expired entries on a write and sets the new one, rounding its expiry up', () => {
    const entries: [string, CacheEntry][] = [
      ['gone', { v: 1, e: T0 }],
      ['live', { v: 2, e: T0 + 1 }],
      ['forever', { v: 3, e: null }],
    ];
    const next = cacheAfterWrite(entries, { key: 'new', value: { a: 1 }, ttlSeconds: 0.0015 }, T0);
    expect(Object.getPrototypeOf(next)).toBeNull();
    expect({ ...next }).toEqual({ live: { v: 2, e: T0 + 1 }, forever: { v: 3, e: null }, new: { v: { a: 1 }, e: T0 + 2 } });
    expect(cacheAfterWrite(entries, { key: 'live', value: 'again', ttlSeconds: null }, T0).live).toEqual({ v: 'again', e: null });
  });
});
