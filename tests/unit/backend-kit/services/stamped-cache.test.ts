// StampedCache: values kept per version of a file, given back only while a fresh stat shows that
// version, within limits of entries and bytes (least recently used out first).
import { mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stampOf } from '../../../../backend-kit/src/services/file-stamp.js';
import { StampedCache } from '../../../../backend-kit/src/services/stamped-cache.js';

describe('StampedCache', () => {
  let folder: string;
  const file = (name: string) => join(folder, name);

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'stamped-cache-'));
    for (const name of ['a', 'b', 'c']) await writeFile(file(name), name);
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  it('gives a value back for the same version only, and forgets it when the file changed', async () => {
    const cache = new StampedCache<string>({ maxEntries: 10 });
    cache.set(file('a'), stampOf(await stat(file('a'))), 'parsed a');
    expect(cache.get(file('a'), await stat(file('a')))).toBe('parsed a');
    await writeFile(file('a'), 'A');
    await utimes(file('a'), 1_600_000_000, 1_600_000_000);
    expect(cache.get(file('a'), await stat(file('a')))).toBeUndefined();
    expect(cache.size.entries).toBe(0);
  });

  it('drops the least recently used entry past the entry limit', async () => {
    const cache = new StampedCache<string>({ maxEntries: 2 });
    cache.set(file('a'), stampOf(await stat(file('a'))), 'a');
    cache.set(file('b'), stampOf(await stat(file('b'))), 'b');
    expect(cache.get(file('a'), await stat(file('a')))).toBe('a');
    cache.set(file('c'), stampOf(await stat(file('c'))), 'c');
    expect(cache.get(file('b'), await stat(file('b')))).toBeUndefined();
    expect(cache.get(file('a'), await stat(file('a')))).toBe('a');
    expect(cache.get(file('c'), await stat(file('c')))).toBe('c');
  });

  it('keeps within its byte limit and never keeps a value larger than the limit', async () => {
    const cache = new StampedCache<string>({ maxEntries: 10, maxBytes: 100 });
    cache.set(file('a'), stampOf(await stat(file('a'))), 'a', 60);
    cache.set(file('b'), stampOf(await stat(file('b'))), 'b', 60);
    expect(cache.size).toEqual({ entries: 1, bytes: 60 });
    expect(cache.get(file('b'), await stat(file('b')))).toBe('b');
    cache.set(file('c'), stampOf(await stat(file('c'))), 'c', 101);
    expect(cache.get(file('c'), await stat(file('c')))).toBeUndefined();
    expect(cache.size).toEqual({ entries: 1, bytes: 60 });
  });
});
