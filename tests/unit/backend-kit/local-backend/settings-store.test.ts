import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isPluginHostError } from '@plughost/host-sdk/core';
import { dataPaths, type DataPaths } from '../../../../backend-kit/src/config/data-paths.js';
import { KeyedLock } from '../../../../backend-kit/src/services/keyed-lock.js';
import { createSettingsStore, type SettingsStore } from '../../../../backend-kit/src/services/plugin-data/settings-store.js';
import { sampleManifest } from '../../../support/plugin-package.js';

/** Failures injected into the real writeFileAtomic, standing in for a crash or a full disk. */
const inject = vi.hoisted(() => ({ renameFails: false, writeStopsHalfway: false }));

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  const rename: typeof actual.rename = async (from, to) => {
    if (inject.renameFails) throw Object.assign(new Error('EIO: simulated crash before rename'), { code: 'EIO' });
    return actual.rename(from, to);
  };
  const open = async (...args: Parameters<typeof actual.open>) => {
    const handle = await actual.open(...args);
    if (!inject.writeStopsHalfway) return handle;
    // A handle whose writeFile puts half the data on disk, then fails like a full disk would.
    return new Proxy(handle, {
      get(target, property) {
        if (property === 'writeFile') {
          return async (data: string) => {
            await target.write(data.slice(0, Math.floor(data.length / 2)));
            throw Object.assign(new Error('ENOSPC: simulated full disk'), { code: 'ENOSPC' });
          };
        }
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  };
  return { ...actual, default: { ...actual, rename, open }, rename, open };
});

const ID = 'com.example.store';

describe('createSettingsStore', () => {
  let root: string;
  let paths: DataPaths;
  let lock: KeyedLock;
  let store: SettingsStore;
  let folder: string;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'settings-store-'));
    paths = dataPaths(root);
    lock = new KeyedLock();
    store = createSettingsStore({ paths, pluginLock: lock });
    folder = paths.pluginFolder(ID);
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'manifest.json'), JSON.stringify(sampleManifest({ id: ID })));
  });
  afterEach(async () => {
    inject.renameFails = false;
    inject.writeStopsHalfway = false;
    await rm(root, { recursive: true, force: true });
  });

  it('leaves the old file intact and no temporary file when the rename fails (crash before the rename)', async () => {
    await store.merge(ID, 'kept', { a: 1 });
    const before = await readFile(join(folder, 'settings.json'), 'utf8');
    inject.renameFails = true;
    await expect(store.merge(ID, 'lost', 2)).rejects.toThrow(/simulated crash/);
    inject.renameFails = false;
    expect(await readFile(join(folder, 'settings.json'), 'utf8')).toBe(before);
    expect((await readdir(folder)).sort()).toEqual(['manifest.json', 'settings.json']);
    expect(await store.merge(ID, 'next', 3)).toEqual({ kept: { a: 1 }, next: 3 });
  });

  it('leaves the old file intact when the disk fills halfway through the write', async () => {
    await store.merge(ID, 'kept', 'value');
    const before = await readFile(join(folder, 'settings.json'), 'utf8');
    inject.writeStopsHalfway = true;
    await expect(store.merge(ID, 'big', 'x'.repeat(10_000))).rejects.toThrow(/simulated full disk/);
    inject.writeStopsHalfway = false;
    expect(await readFile(join(folder, 'settings.json'), 'utf8')).toBe(before);
    expect((await readdir(folder)).sort()).toEqual(['manifest.json', 'settings.json']);
  });

  it('releases the plugin lock after a failed write', async () => {
    inject.renameFails = true;
    await expect(store.merge(ID, 'a', 1)).rejects.toThrow();
    inject.renameFails = false;
    expect(lock.activeKeys).toBe(0);
    expect(await store.merge(ID, 'a', 1)).toEqual({ a: 1 });
  });

  it('waits for the plugin lock (an install in progress) before writing', async () => {
    let release!: () => void;
    const install = lock.run(ID, () => new Promise<void>((resolve) => (release = resolve)));
    const write = store.merge(ID, 'a', 1);
    await new Promise((resolve) => setTimeout(resolve, 30));
    await expect(readFile(join(folder, 'settings.json'), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
    release();
    await install;
    expect(await write).toEqual({ a: 1 });
  });

  it('checks the install under the lock: an uninstall that ran first leaves nothing behind', async () => {
    const uninstall = lock.run(ID, () => rm(folder, { recursive: true, force: true }));
    const write = store.merge(ID, 'a', 1);
    await uninstall;
    const error: unknown = await write.catch((caught: unknown) => caught);
    expect(isPluginHostError(error, 'PLUGIN_NOT_FOUND')).toBe(true);
    await expect(readdir(folder)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('returns prototype-less objects, so stored keys never reach Object.prototype', async () => {
    await writeFile(join(folder, 'settings.json'), '{"__proto__":{"polluted":true}}');
    const settings = await store.read(ID);
    expect(Object.getPrototypeOf(settings)).toBeNull();
    expect(Object.keys(settings)).toEqual(['__proto__']);
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('checks key and value before taking the lock', async () => {
    for (const [key, value] of [
      ['__proto__', 1],
      ['', 1],
      ['a', undefined],
      ['a', () => 1],
    ] as const) {
      const error: unknown = await store.merge(ID, key, value).catch((caught: unknown) => caught);
      expect(isPluginHostError(error, 'INVALID_ARGUMENT'), String(key)).toBe(true);
    }
    expect(lock.activeKeys).toBe(0);
  });

  it('honours custom limits', async () => {
    const small = createSettingsStore({
      paths,
      pluginLock: lock,
      limits: { maxKeyLength: 4, maxValueBytes: 10, maxFileBytes: 60, maxDepth: 2, maxTtlSeconds: 1 },
    });
    const refusal = async (key: string, value: unknown) => {
      const error: unknown = await small.merge(ID, key, value).catch((caught: unknown) => caught);
      return isPluginHostError(error, 'INVALID_ARGUMENT') ? error.details : null;
    };
    expect(await refusal('abcde', 1)).toMatchObject({ limit: 'key length', maximum: 4 });
    expect(await refusal('a', 'x'.repeat(20))).toMatchObject({ limit: 'value size', maximum: 10 });
    expect(await refusal('a', [[[1]]])).toMatchObject({ limit: 'nesting depth', maximum: 2 });
    expect(await small.merge(ID, 'a', [[1]])).toEqual({ a: [[1]] });
    expect(await small.merge(ID, 'b', '12345678')).toEqual({ a: [[1]], b: '12345678' });
    expect(await refusal('c', '12345678')).toMatchObject({ limit: 'file size', maximum: 60 });
  });
});
