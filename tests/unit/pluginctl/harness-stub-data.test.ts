/**
 * The stub's settings and cache in memory follow the backend's cache rules (the same functions,
 * backend-kit's cache-entries.ts); here with an injected clock, which the HTTP tests in
 * harness-stub.test.ts cannot reach.
 */
import { describe, expect, it } from 'vitest';
import { PLUGIN_DATA_LIMITS } from '@plughost/backend-kit';
import { MemoryPluginData } from '../../../pluginctl/src/harness/stub/plugin-data.js';

const T0 = Date.parse('2030-01-01T00:00:00Z');

describe('MemoryPluginData: the cache in memory', () => {
  it('expires, prunes and checks like the backend', () => {
    let now = T0;
    const data = new MemoryPluginData({}, () => now);
    expect(data.cacheSet('com.example.a', 'feed', [1], 60)).toEqual({ key: 'feed', value: [1] });
    now = T0 + 59_999;
    expect(data.cacheGet('com.example.a', 'feed')).toEqual({ key: 'feed', value: [1] });
    now = T0 + 60_000;
    expect(data.cacheGet('com.example.a', 'feed')).toEqual({ key: 'feed', value: null });
    expect(() => data.cacheSet('com.example.a', 'feed', 1, PLUGIN_DATA_LIMITS.maxTtlSeconds + 1)).toThrow(/exceeds the ttl limit/);
  });

  it('keeps each plugin apart and prunes expired entries on a write', () => {
    let now = T0;
    const data = new MemoryPluginData({}, () => now);
    data.cacheSet('com.example.a', 'short', 1, 1);
    data.cacheSet('com.example.a', 'long', 2, 10);
    expect(data.cacheGet('com.example.b', 'long')).toEqual({ key: 'long', value: null });
    now = T0 + 1_000;
    data.cacheSet('com.example.a', 'other', 3, null);
    now = T0;
    // Pruned by the write at T0 + 1 s: going back in time does not bring it back.
    expect(data.cacheGet('com.example.a', 'short')).toEqual({ key: 'short', value: null });
    expect(data.cacheGet('com.example.a', 'long')).toEqual({ key: 'long', value: 2 });
  });
});
