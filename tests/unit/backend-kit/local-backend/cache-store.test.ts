import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dataPaths, type DataPaths } from '../../../../backend-kit/src/config/data-paths.js';
import { KeyedLock } from '../../../../backend-kit/src/services/keyed-lock.js';
import { createCacheStore, type CacheStore } from '../../../../backend-kit/src/services/plugin-data/cache-store.js';
import { sampleManifest } from '../../../support/plugin-package.js';

const ID = 'com.example.clock';
const T0 = Date.parse('2030-01-01T00:00:00Z');

describe('createCacheStore with an injected clock', () => {
  let root: string;
  let paths: DataPaths;
  let now: number;
  let cache: CacheStore;

  const onDisk = async () => JSON.parse(await readFile(join(paths.pluginFolder(ID), 'cache.json'), 'utf8')) as Record<string, { v: unknown; e: number | null }>;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'cache-store-'));
    paths = dataPaths(root);
    now = T0;
    cache = createCacheStore({ paths, pluginLock: new KeyedLock(), now: () => now });
    await mkdir(paths.pluginFolder(ID), { recursive: true });
    await writeFile(join(paths.pluginFolder(ID), 'manifest.json'), JSON.stringify(sampleManifest({ id: ID })));
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('expires an entry exactly ttlSeconds after the write', async () => {
    await cache.set(ID, 'a', 'value', 60);
    expect((await onDisk()).a).toEqual({ v: 'value', e: T0 + 60_000 });
    now = T0 + 59_999;
    expect(await cache.get(ID, 'a')).toEqual({ key: 'a', value: 'value' });
    now = T0 + 60_000;
    expect(await cache.get(ID, 'a')).toEqual({ key: 'a', value: null });
  });

  it('rounds fractional lifetimes up to whole milliseconds', async () => {
    await cache.set(ID, 'a', 1, 0.0001);
    expect((await onDisk()).a!.e).toBe(T0 + 1);
  });

  it('prunes every expired entry on a write, keeps live and unexpiring ones', async () => {
    await cache.set(ID, 'short', 1, 10);
    await cache.set(ID, 'long', 2, 1000);
    await cache.set(ID, 'forever', 3);
    now = T0 + 10_000;
    await cache.set(ID, 'new', 4, 5);
    expect(Object.keys(await onDisk()).sort()).toEqual(['forever', 'long', 'new']);
    now = T0 + 2_000_000;
    await cache.set(ID, 'forever', 'replaced');
    expect(await onDisk()).toEqual({ forever: { v: 'replaced', e: null } });
  });

  it('replaces an expiring entry with an unexpiring one and back', async () => {
    await cache.set(ID, 'a', 1, 10);
    await cache.set(ID, 'a', 2);
    now = T0 + 20_000;
    expect(await cache.get(ID, 'a')).toEqual({ key: 'a', value: 2 });
    await cache.set(ID, 'a', 3, 1);
    expect((await onDisk()).a).toEqual({ v: 3, e: T0 + 21_000 });
  });

  it('stores null like any value, read back as null', async () => {
    await cache.set(ID, 'a', null, 10);
    expect(await cache.get(ID, 'a')).toEqual({ key: 'a', value: null });
    expect((await onDisk()).a).toEqual({ v: null, e: T0 + 10_000 });
  });
});
