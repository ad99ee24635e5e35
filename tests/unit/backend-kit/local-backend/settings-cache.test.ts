// The settings and installation checks kept per version of their files (StampedCache): a read
// after an edit by hand, a broken file or a removed manifest sees the change at once, and what a
// reader gets cannot change what the next reader gets.
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isPluginHostError } from '@plughost/host-sdk/core';
import { dataPaths, type DataPaths } from '../../../../backend-kit/src/config/data-paths.js';
import { KeyedLock } from '../../../../backend-kit/src/services/keyed-lock.js';
import { createSettingsStore, type SettingsStore } from '../../../../backend-kit/src/services/plugin-data/settings-store.js';
import { sampleManifest } from '../../../support/plugin-package.js';

const ID = 'com.example.cached-settings';

describe('settings read per version of the file', () => {
  let root: string;
  let paths: DataPaths;
  let store: SettingsStore;
  let folder: string;

  /** Writes `text` to `name` in the plugin folder in place, with a modification time of its own. */
  async function editByHand(name: string, text: string, seconds: number): Promise<void> {
    await writeFile(join(folder, name), text);
    await utimes(join(folder, name), seconds, seconds);
  }

  async function codeOf(read: Promise<unknown>): Promise<string | undefined> {
    try {
      await read;
      return undefined;
    } catch (error) {
      return isPluginHostError(error) ? error.code : String(error);
    }
  }

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'settings-cache-'));
    paths = dataPaths(root);
    store = createSettingsStore({ paths, pluginLock: new KeyedLock() });
    folder = paths.pluginFolder(ID);
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'manifest.json'), JSON.stringify(sampleManifest({ id: ID })));
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('sees an edit by hand of the same size', async () => {
    await editByHand('settings.json', '{"theme":"dark"}', 1_600_000_000);
    expect(await store.read(ID)).toEqual({ theme: 'dark' });
    await editByHand('settings.json', '{"theme":"lite"}', 1_600_000_100);
    expect(await store.read(ID)).toEqual({ theme: 'lite' });
  });

  it('sees its own writes at once', async () => {
    expect(await store.read(ID)).toEqual({});
    await store.merge(ID, 'volume', 3);
    expect(await store.read(ID)).toEqual({ volume: 3 });
    await store.merge(ID, 'volume', 4);
    expect(await store.read(ID)).toEqual({ volume: 4 });
  });

  it('refuses a settings file broken by hand after it was read', async () => {
    await editByHand('settings.json', '{"a":1}', 1_600_000_000);
    expect(await store.read(ID)).toEqual({ a: 1 });
    await editByHand('settings.json', '{"a":1', 1_600_000_100);
    expect(await codeOf(store.read(ID))).toBe('INVALID_ARGUMENT');
  });

  it('answers PLUGIN_NOT_FOUND once the manifest is removed or names another plugin', async () => {
    await store.merge(ID, 'kept', true);
    expect(await store.read(ID)).toEqual({ kept: true });
    await editByHand('manifest.json', JSON.stringify(sampleManifest({ id: 'com.example.other' })), 1_600_000_000);
    expect(await codeOf(store.read(ID))).toBe('PLUGIN_NOT_FOUND');
    await rm(join(folder, 'manifest.json'));
    expect(await codeOf(store.read(ID))).toBe('PLUGIN_NOT_FOUND');
    await writeFile(join(folder, 'manifest.json'), JSON.stringify(sampleManifest({ id: ID })));
    expect(await store.read(ID)).toEqual({ kept: true });
  });

  it('gives every reader its own top level, and nested values no reader can change', async () => {
    await store.merge(ID, 'profile', { name: 'Ada', tags: ['a'] });
    const first = await store.read(ID);
    first.extra = 1;
    expect(() => {
      (first.profile as { name: string }).name = 'Eve';
    }).toThrow(TypeError);
    expect(await store.read(ID)).toEqual({ profile: { name: 'Ada', tags: ['a'] } });
  });
});
