/**
 * The cache's rules as plain functions, with no file behind them: how `ttlSeconds` is checked,
 * when an entry has expired, and what a write leaves. The backend's cache store applies them to
 * `cache.json`; pluginctl's harness stub applies them to its cache in memory, so both answer alike.
 */
import { PluginHostError } from '@plughost/host-sdk/core';
import type { PluginDataLimits } from './data-limits.js';

/** One entry of `cache.json` as the specification stores it: value `v`, expiry `e` in epoch ms or `null`. */
export interface CacheEntry {
  v: unknown;
  e: number | null;
}

/**
 * Checks the `ttlSeconds` of a cache write: absent or `null` for an entry that never expires,
 * else a positive number of seconds (fractions allowed) up to `limits.maxTtlSeconds`.
 *
 * @throws PluginHostError `INVALID_ARGUMENT` (`details.field` or `details.limit` and `maximum`).
 */
export function requireTtlSeconds(ttlSeconds: unknown, limits: PluginDataLimits): number | null {
  if (ttlSeconds === undefined || ttlSeconds === null) return null;
  if (typeof ttlSeconds !== 'number' || !Number.isFinite(ttlSeconds) || ttlSeconds <= 0) {
    throw new PluginHostError('INVALID_ARGUMENT', '"ttlSeconds" must be a positive number of seconds', { field: 'ttlSeconds' });
  }
  if (ttlSeconds > limits.maxTtlSeconds) {
    throw new PluginHostError('INVALID_ARGUMENT', `"ttlSeconds" exceeds the ttl limit of ${limits.maxTtlSeconds} seconds`, {
      limit: 'ttl',
      maximum: limits.maxTtlSeconds,
    });
  }
  return ttlSeconds;
}

/** Whether `entry` is still live at `now` (epoch ms): it never expires, or expires after `now`. */
export function isLiveCacheEntry(entry: CacheEntry, now: number): boolean {
  return entry.e === null || entry.e > now;
}

/** What a cache read answers for `entry` at `now`: its value while live, `null` when missing or expired. */
export function cachedValue(entry: CacheEntry | undefined, now: number): unknown {
  return entry && isLiveCacheEntry(entry, now) ? entry.v : null;
}

/**
 * The entries after a write at `now`: the live ones kept, expired ones dropped (every write prunes,
 * so the file cannot grow with dead entries), and `key` set to `value`, expiring `ttlSeconds`
 * (checked by {@link requireTtlSeconds}) after `now`, rounded up to the millisecond, or never.
 * The result has no prototype, like every data file the backend reads.
 */
export function cacheAfterWrite(
  entries: Iterable<readonly [string, CacheEntry]>,
  write: { readonly key: string; readonly value: unknown; readonly ttlSeconds: number | null },
  now: number,
): Record<string, CacheEntry> {
  const next = Object.create(null) as Record<string, CacheEntry>;
  for (const [key, entry] of entries) if (isLiveCacheEntry(entry, now)) next[key] = entry;
  next[write.key] = { v: write.value, e: write.ttlSeconds === null ? null : now + Math.ceil(write.ttlSeconds * 1000) };
  return next;
}
