import { describe, expect, it } from 'vitest';
import {
  findDownloadInfoProblem,
  isUsableRegistry,
  readDownloadInfo,
  readRegistryMetadata,
  readRegistryPlugin,
  readRegistryPluginDetail,
  readUpdateItem,
} from '@plughost/host-sdk/core';

const SHA = 'AB'.repeat(32);
const INFO = { url: 'https://store.example.com/p.plugpkg', sha256: SHA, size: 12 };

describe('registry answer readers', () => {
  it('reads a plugin leniently: required id, slug and name; wrong optional fields dropped', () => {
    expect(readRegistryPlugin({ id: 'a.b', slug: 'b' })).toBeNull();
    expect(readRegistryPlugin([])).toBeNull();
    expect(
      readRegistryPlugin({
        id: 'a.b',
        slug: 'b',
        name: 'B',
        category: 3,
        tags: ['x', 1],
        iconUrl: null,
        downloadsCount: -4,
        ratingAverage: 9,
        ratingCount: 'many',
      }),
    ).toEqual({ id: 'a.b', slug: 'b', name: 'B', description: '', tags: ['x'], downloadsCount: 0, ratingAverage: 5, ratingCount: 0, createdAt: '' });
    const detail = readRegistryPluginDetail({ id: 'a.b', slug: 'b', name: 'B', versions: [{ version: '1.0.0' }, { id: 'no-version' }, 'x'] });
    expect(detail?.versions).toEqual([
      { id: '1.0.0', version: '1.0.0', sha256: '', sizeBytes: 0, changelog: '', publishedAt: '', minLauncherVersion: '', permissions: [] },
    ]);
  });

  it('reads metadata and applies the usability rule (major 1 or higher; list, detail, download)', () => {
    const metadata = readRegistryMetadata({
      apiVersion: '1.3',
      baseUrl: 'https://s/api/v1',
      pluginCount: 4,
      capabilities: ['list', 'detail', 'download', 'teleport'],
      mirrors: ['cdn', 5],
    });
    expect(metadata).toEqual({
      apiVersion: '1.3',
      baseUrl: 'https://s/api/v1',
      pluginCount: 4,
      capabilities: ['list', 'detail', 'download'],
      mirrors: ['cdn'],
    });
    expect(isUsableRegistry(metadata!)).toBe(true);
    expect(isUsableRegistry({ ...metadata!, apiVersion: '0.9' })).toBe(false);
    expect(isUsableRegistry({ ...metadata!, apiVersion: '2.0' })).toBe(true);
    expect(isUsableRegistry({ ...metadata!, apiVersion: 'one' })).toBe(false);
    expect(isUsableRegistry({ ...metadata!, capabilities: ['list', 'detail'] })).toBe(false);
    expect(readRegistryMetadata({ baseUrl: 'x' })).toBeNull();
  });

  it('reads download info strictly', () => {
    expect(readDownloadInfo({ ...INFO, mirrorUrl: null })).toEqual({ ...INFO, sha256: SHA.toLowerCase() });
    const refused: [unknown, string][] = [
      [[], 'not a JSON object'],
      [{ ...INFO, url: 'ftp://h/x' }, 'url is not an http or https URL'],
      [{ ...INFO, url: '/relative' }, 'url is not an absolute URL'],
      [{ ...INFO, url: 'https://user:pw@h/x' }, 'url carries credentials'],
      [{ ...INFO, mirrorUrl: 'javascript:alert(1)' }, 'mirrorUrl is not an http or https URL'],
      [{ ...INFO, sha256: 'abc' }, 'sha256 is not 64 hexadecimal digits'],
      [{ ...INFO, size: 0 }, 'size is not a positive whole number of bytes'],
      [{ ...INFO, size: '12' }, 'size is not a positive whole number of bytes'],
      [{ ...INFO, size: 1.5 }, 'size is not a positive whole number of bytes'],
    ];
    for (const [value, problem] of refused) {
      expect(findDownloadInfoProblem(value)).toBe(problem);
      expect(readDownloadInfo(value)).toBeNull();
    }
  });

  it('reads update items: semver versions, usable download, rollout 0 to 100 (absent means everyone)', () => {
    const item = { slug: 'hello', currentVersion: '1.0.0', latestVersion: '1.1.0', changelog: 'c', publishedAt: 't', download: INFO };
    expect(readUpdateItem(item)).toMatchObject({ rolloutPercent: 100, download: { sha256: SHA.toLowerCase() } });
    expect(readUpdateItem({ ...item, rolloutPercent: 30 })?.rolloutPercent).toBe(30);
    expect(readUpdateItem({ ...item, rolloutPercent: 101 })).toBeNull();
    expect(readUpdateItem({ ...item, latestVersion: 'v1.1.0' })).toBeNull();
    expect(readUpdateItem({ ...item, download: { ...INFO, size: -1 } })).toBeNull();
  });
});
