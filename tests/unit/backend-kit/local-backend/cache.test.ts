import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBackend, type TestBackend } from '../../../support/local-backend.js';
import { sampleManifest } from '../../../support/plugin-package.js';

async function installOnDisk(dataDirectory: string, id: string): Promise<string> {
  const folder = join(dataDirectory, 'plugins', id);
  await mkdir(folder, { recursive: true });
  await writeFile(join(folder, 'manifest.json'), JSON.stringify(sampleManifest({ id })));
  return folder;
}

describe('GET|POST /api/plugins/cache/:id', () => {
  let server: TestBackend;
  let plugin = 0;
  // The backend's clock: expiry is driven by moving it, never by waiting.
  let clock = Date.UTC(2030, 0, 1);

  async function freshPlugin(): Promise<{ id: string; path: string; folder: string }> {
    const id = `com.example.cache${++plugin}`;
    return { id, path: `/api/plugins/cache/${id}`, folder: await installOnDisk(server.dataDirectory, id) };
  }
  const getKey = async (path: string, key: string) => (await server.api(`${path}?key=${encodeURIComponent(key)}`)).json();

  beforeAll(async () => {
    server = await startTestBackend({ now: () => clock });
  });
  afterAll(() => server.close());

  it('stores and reads values, answering {key, value}; null for a missing key', async () => {
    const { path, folder } = await freshPlugin();
    const written = await server.api(path, { json: { key: 'feed', value: { items: [1, 2] } } });
    expect(written.status).toBe(200);
    expect(written.headers.get('cache-control')).toBe('no-store');
    expect(await written.json()).toEqual({ key: 'feed', value: { items: [1, 2] } });
    expect(await getKey(path, 'feed')).toEqual({ key: 'feed', value: { items: [1, 2] } });
    expect(await getKey(path, 'missing')).toEqual({ key: 'missing', value: null });
    expect(await getKey(path, 'a key with spaces & symbols?')).toEqual({ key: 'a key with spaces & symbols?', value: null });
    expect(JSON.parse(await readFile(join(folder, 'cache.json'), 'utf8'))).toEqual({ feed: { v: { items: [1, 2] }, e: null } });
  });

  it('needs the token', async () => {
    const { path } = await freshPlugin();
    expect((await server.api(`${path}?key=a`, { token: null })).status).toBe(401);
    expect((await server.api(path, { token: null, json: { key: 'a', value: 1 } })).status).toBe(401);
  });

  it('stores the expiry as epoch milliseconds, answers null once expired, and prunes it on the next write', async () => {
    const { path, folder } = await freshPlugin();
    const start = clock;
    await server.api(path, { json: { key: 'short', value: 'soon gone', ttlSeconds: 1 } });
    await server.api(path, { json: { key: 'long', value: 'stays', ttlSeconds: 3600 } });
    await server.api(path, { json: { key: 'forever', value: 'stays', ttlSeconds: null } });
    const stored = JSON.parse(await readFile(join(folder, 'cache.json'), 'utf8')) as Record<string, { v: unknown; e: number | null }>;
    expect(stored.short!.e).toBe(start + 1000);
    expect(stored.long!.e).toBe(start + 3600 * 1000);
    expect(stored.forever!.e).toBeNull();
    clock = start + 999;
    expect(await getKey(path, 'short')).toEqual({ key: 'short', value: 'soon gone' });

    // Expired from the stored millisecond on.
    clock = start + 1000;
    expect(await getKey(path, 'short')).toEqual({ key: 'short', value: null });
    // Reads never write: the expired entry is still on disk until a write prunes it.
    expect(Object.keys(JSON.parse(await readFile(join(folder, 'cache.json'), 'utf8')) as object)).toContain('short');

    await server.api(path, { json: { key: 'other', value: 1 } });
    const pruned = JSON.parse(await readFile(join(folder, 'cache.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(pruned).sort()).toEqual(['forever', 'long', 'other']);
    expect(await getKey(path, 'long')).toEqual({ key: 'long', value: 'stays' });

    clock = start + 3600 * 1000;
    expect(await getKey(path, 'long')).toEqual({ key: 'long', value: null });
    expect(await getKey(path, 'forever')).toEqual({ key: 'forever', value: 'stays' });
  });

  it.each([0, -1, 'ten', true, [1], {}, 365 * 24 * 3600 + 1])('refuses ttlSeconds %j', async (ttlSeconds) => {
    const { path } = await freshPlugin();
    const response = await server.api(path, { json: { key: 'a', value: 1, ttlSeconds } });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 'INVALID_ARGUMENT' } });
  });

  it('accepts fractional and maximal ttlSeconds, rounding the expiry up to the next millisecond', async () => {
    const { path, folder } = await freshPlugin();
    expect((await server.api(path, { json: { key: 'a', value: 1, ttlSeconds: 0.0005 } })).status).toBe(200);
    expect((await server.api(path, { json: { key: 'b', value: 1, ttlSeconds: 365 * 24 * 3600 } })).status).toBe(200);
    const stored = JSON.parse(await readFile(join(folder, 'cache.json'), 'utf8')) as Record<string, { e: number }>;
    expect(stored.a!.e).toBe(clock + 1);
    expect(stored.b!.e).toBe(clock + 365 * 24 * 3600 * 1000);
  });

  it('refuses a read without exactly one key', async () => {
    const { path } = await freshPlugin();
    for (const query of ['', '?key=', '?key=a&key=b', '?other=a', '?key=__proto__']) {
      const response = await server.api(`${path}${query}`);
      expect(response.status, query).toBe(400);
      expect(await response.json()).toMatchObject({ error: { code: 'INVALID_ARGUMENT' } });
    }
  });

  it.each([
    ['a prototype key', { key: '__proto__', value: 1 }],
    ['a constructor key', { key: 'constructor', value: 1 }],
    ['a missing value', { key: 'a' }],
    ['an unknown field', { key: 'a', value: 1, ttl: 5 }],
    ['an empty key', { key: '', value: 1 }],
  ])('refuses %s', async (_, json) => {
    const { path } = await freshPlugin();
    const response = await server.api(path, { json });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 'INVALID_ARGUMENT' } });
  });

  it('loses no entry with 100 concurrent writers and leaves no temporary file', async () => {
    const { path, folder } = await freshPlugin();
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, index) => server.api(path, { json: { key: `k${index}`, value: index, ttlSeconds: 600 } })),
    );
    expect(responses.every((response) => response.status === 200)).toBe(true);
    const stored = JSON.parse(await readFile(join(folder, 'cache.json'), 'utf8')) as Record<string, { v: number }>;
    expect(Object.keys(stored)).toHaveLength(100);
    for (let index = 0; index < 100; index++) expect(stored[`k${index}`]!.v).toBe(index);
    expect((await readdir(folder)).sort()).toEqual(['cache.json', 'manifest.json']);
  });

  it('refuses to read or overwrite a damaged cache.json, naming the file', async () => {
    const { id, path, folder } = await freshPlugin();
    for (const damaged of ['not json', '[]', '{"a": 5}', '{"a": {"e": null}}', '{"a": {"v": 1, "e": "tomorrow"}}']) {
      await writeFile(join(folder, 'cache.json'), damaged);
      for (const response of [await server.api(`${path}?key=a`), await server.api(path, { json: { key: 'b', value: 1 } })]) {
        expect(response.status, damaged).toBe(400);
        const body = (await response.json()) as { error: { code: string; message: string } };
        expect(body.error.code).toBe('INVALID_ARGUMENT');
        expect(body.error.message).toContain(`plugins/${id}/cache.json`);
      }
      expect(await readFile(join(folder, 'cache.json'), 'utf8')).toBe(damaged);
    }
  });

  it('reads an entry without "e" as never expiring', async () => {
    const { path, folder } = await freshPlugin();
    await writeFile(join(folder, 'cache.json'), '{"a": {"v": "x"}}');
    expect(await getKey(path, 'a')).toEqual({ key: 'a', value: 'x' });
  });

  it('answers 404 PLUGIN_NOT_FOUND for a plugin that is not installed', async () => {
    for (const response of [
      await server.api('/api/plugins/cache/com.example.absent?key=a'),
      await server.api('/api/plugins/cache/com.example.absent', { json: { key: 'a', value: 1 } }),
    ]) {
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ error: { code: 'PLUGIN_NOT_FOUND' } });
    }
  });

  it('keeps the cache apart from settings', async () => {
    const { id, path } = await freshPlugin();
    await server.api(path, { json: { key: 'same', value: 'cache' } });
    await server.api(`/api/plugins/settings/${id}`, { json: { key: 'same', value: 'settings' } });
    expect(await getKey(path, 'same')).toEqual({ key: 'same', value: 'cache' });
    expect(await (await server.api(`/api/plugins/settings/${id}`)).json()).toEqual({ same: 'settings' });
  });
});
