import { writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as realSetImmediate } from 'node:timers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dataPaths, type DataPaths } from '../../../../backend-kit/src/config/data-paths.js';
import { currentStats } from '../../../../backend-kit/src/services/file-stamp.js';
import { KeyedLock } from '../../../../backend-kit/src/services/keyed-lock.js';
import { createSettingsStore, type SettingsStore } from '../../../../backend-kit/src/services/plugin-data/settings-store.js';
import { sampleManifest } from '../../../support/plugin-package.js';

const ID = 'com.example.shared-stats';
const nextIteration = () => new Promise<void>((resolve) => realSetImmediate(resolve));

describe('stats shared within one event-loop iteration', () => {
  let root: string;
  let paths: DataPaths;
  let store: SettingsStore;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'shared-stats-'));
    paths = dataPaths(root);
    store = createSettingsStore({ paths, pluginLock: new KeyedLock() });
    await mkdir(paths.pluginFolder(ID), { recursive: true });
    await writeFile(join(paths.pluginFolder(ID), 'manifest.json'), JSON.stringify(sampleManifest({ id: ID })));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('answers one iteration from one stat, and sees a change made elsewhere from the next iteration on', async () => {
    const path = join(root, 'edited-elsewhere.json');
    writeFileSync(path, '{}');
    expect(currentStats(path, { follow: true })?.size).toBe(2);
    // Stands in for another process writing the file while this iteration runs.
    writeFileSync(path, '{"theme":"dark"}');
    expect(currentStats(path, { follow: true })?.size).toBe(2);
    expect(currentStats(path, { follow: false })?.size).toBe(16);
    await nextIteration();
    expect(currentStats(path, { follow: true })?.size).toBe(16);
  });

  it("forgets the shared stats under a test runner's fake timers too", async () => {
    vi.useFakeTimers();
    try {
      const path = join(root, 'edited-under-fake-timers.json');
      writeFileSync(path, '{}');
      expect(currentStats(path, { follow: true })?.size).toBe(2);
      writeFileSync(path, '{"theme":"dark"}');
      await nextIteration();
      expect(currentStats(path, { follow: true })?.size).toBe(16);
    } finally {
      vi.useRealTimers();
    }
  });

  it('loses no write and shows each writer its own write while readers keep the stats shared', async () => {
    let reading = true;
    let reads = 0;
    // Readers in every iteration, so stats of settings.json taken before a write completes are
    // there to be shared when the next writer (waiting for the lock) reads the file right after
    // that write. A kept read completes without I/O, so each reader yields between reads.
    const readers = Array.from({ length: 8 }, async () => {
      while (reading) {
        await store.read(ID);
        reads++;
        await nextIteration();
      }
    });
    try {
      const writers = Array.from({ length: 40 }, async (_, index) => {
        const key = `key${index}`;
        const written = await store.merge(ID, key, index);
        expect(written[key]).toBe(index);
        // What the awaited write put there, read back at once.
        expect((await store.read(ID))[key]).toBe(index);
      });
      await Promise.all(writers);
    } finally {
      reading = false;
      await Promise.all(readers);
    }
    const settings = await store.read(ID);
    expect(Object.keys(settings)).toHaveLength(40);
    for (let index = 0; index < 40; index++) expect(settings[`key${index}`]).toBe(index);
    expect(reads).toBeGreaterThan(0);
  });
});
