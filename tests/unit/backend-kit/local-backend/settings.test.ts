import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBackend, type TestBackend } from '../../../support/local-backend.js';
import { sampleManifest } from '../../../support/plugin-package.js';

const ID = 'com.example.settings';
const URL_PATH = `/api/plugins/settings/${ID}`;

async function installOnDisk(dataDirectory: string, id: string): Promise<string> {
  const folder = join(dataDirectory, 'plugins', id);
  await mkdir(folder, { recursive: true });
  await writeFile(join(folder, 'manifest.json'), JSON.stringify(sampleManifest({ id })));
  return folder;
}

describe('GET|POST /api/plugins/settings/:id', () => {
  let server: TestBackend;
  let folder: string;
  let plugin = 0;

  /** A fresh installed plugin per test, so tests do not see each other's keys. */
  async function freshPlugin(): Promise<{ id: string; path: string; folder: string }> {
    const id = `com.example.settings${++plugin}`;
    const pluginFolder = await installOnDisk(server.dataDirectory, id);
    return { id, path: `/api/plugins/settings/${id}`, folder: pluginFolder };
  }

  beforeAll(async () => {
    server = await startTestBackend();
    folder = await installOnDisk(server.dataDirectory, ID);
  });
  afterAll(() => server.close());

  it('answers {} when nothing was written, and needs the token', async () => {
    const response = await server.api(URL_PATH);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({});
    expect((await server.api(URL_PATH, { token: null })).status).toBe(401);
    expect((await server.api(URL_PATH, { token: null, json: { key: 'a', value: 1 } })).status).toBe(401);
  });

  it('merges one key at a time and answers the whole object', async () => {
    const { path, folder: pluginFolder } = await freshPlugin();
    expect(await (await server.api(path, { json: { key: 'a', value: 1 } })).json()).toEqual({ a: 1 });
    expect(await (await server.api(path, { json: { key: 'b', value: { nested: [1, 'two', null] } } })).json()).toEqual({
      a: 1,
      b: { nested: [1, 'two', null] },
    });
    expect(await (await server.api(path, { json: { key: 'a', value: null } })).json()).toEqual({ a: null, b: { nested: [1, 'two', null] } });
    expect(await (await server.api(path)).json()).toEqual({ a: null, b: { nested: [1, 'two', null] } });
    expect(JSON.parse(await readFile(join(pluginFolder, 'settings.json'), 'utf8'))).toEqual({ a: null, b: { nested: [1, 'two', null] } });
  });

  it('accepts every kind of JSON value', async () => {
    const { path } = await freshPlugin();
    const values: unknown[] = ['text', '', 0, -1.5, true, false, null, [], {}, [{ a: [{}] }]];
    for (const [index, value] of values.entries()) {
      const response = await server.api(path, { json: { key: `k${index}`, value } });
      expect(response.status).toBe(200);
    }
    const all = (await (await server.api(path)).json()) as Record<string, unknown>;
    values.forEach((value, index) => {
      expect(all[`k${index}`]).toEqual(value);
    });
  });

  it('loses no key with 200 concurrent writers, leaves valid JSON and no temporary files', async () => {
    const { path, folder: pluginFolder } = await freshPlugin();
    const responses = await Promise.all(Array.from({ length: 200 }, (_, index) => server.api(path, { json: { key: `key-${index}`, value: { index } } })));
    expect(responses.every((response) => response.status === 200)).toBe(true);
    const onDisk = JSON.parse(await readFile(join(pluginFolder, 'settings.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(onDisk)).toHaveLength(200);
    for (let index = 0; index < 200; index++) expect(onDisk[`key-${index}`]).toEqual({ index });
    expect((await readdir(pluginFolder)).sort()).toEqual(['manifest.json', 'settings.json']);
    // The last answer to be produced held every key.
    const sizes = await Promise.all(responses.map(async (response) => Object.keys((await response.json()) as object).length));
    expect(Math.max(...sizes)).toBe(200);
  });

  it.each(['__proto__', 'constructor', 'prototype'])('refuses the key %s', async (key) => {
    const response = await server.api(URL_PATH, { json: { key, value: { polluted: true } } });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 'INVALID_ARGUMENT', field: 'key' } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses bodies carrying __proto__ anywhere (the JSON parser rejects them); nested constructor/prototype stay data', async () => {
    const { path } = await freshPlugin();
    const send = (body: string) => server.api(path, { method: 'POST', body, headers: { 'Content-Type': 'application/json' } });
    for (const body of ['{"key":"x","value":{"__proto__":{"polluted":true}}}', '{"key":"x","value":1,"__proto__":{"polluted":true}}']) {
      const response = await send(body);
      expect(response.status, body).toBe(400);
      expect(await response.json()).toMatchObject({ error: { code: 'INVALID_ARGUMENT' } });
    }
    expect((await send('{"key":"x","value":{"constructor":{"prototype":{"polluted":true}}}}')).status).toBe(200);
    expect(await (await server.api(path)).json()).toEqual({ x: { constructor: { prototype: { polluted: true } } } });
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('reads a hand-written __proto__ key as inert data', async () => {
    const { path, folder: pluginFolder } = await freshPlugin();
    await writeFile(join(pluginFolder, 'settings.json'), '{"__proto__":{"polluted":true},"a":1}');
    expect(await (await server.api(path)).text()).toBe('{"__proto__":{"polluted":true},"a":1}');
    const merged = await server.api(path, { json: { key: 'b', value: 2 } });
    expect(await merged.text()).toBe('{"__proto__":{"polluted":true},"a":1,"b":2}');
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it.each([
    ['a missing key', { value: 1 }, 'key'],
    ['an empty key', { key: '', value: 1 }, 'key'],
    ['a key that is not a string', { key: 5, value: 1 }, 'key'],
    ['a missing value', { key: 'a' }, 'value'],
    ['an unknown field', { key: 'a', value: 1, val: 2 }, 'val'],
  ])('refuses %s with 400 naming the field', async (_, json, field) => {
    const response = await server.api(URL_PATH, { json });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 'INVALID_ARGUMENT', field } });
  });

  it('refuses bodies that are not JSON objects', async () => {
    const send = (body: string, type = 'application/json') => server.api(URL_PATH, { method: 'POST', body, headers: { 'Content-Type': type } });
    for (const response of await Promise.all([send('[1]'), send('"a"'), send('{bad json'), send('key=a&value=1', 'application/x-www-form-urlencoded')])) {
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: { code: 'INVALID_ARGUMENT' } });
    }
  });

  it('enforces the key, depth, body and file limits with INVALID_ARGUMENT naming the limit', async () => {
    const { path, folder: pluginFolder } = await freshPlugin();
    const longKey = await server.api(path, { json: { key: 'k'.repeat(1025), value: 1 } });
    expect(await longKey.json()).toMatchObject({ error: { code: 'INVALID_ARGUMENT', limit: 'key length', maximum: 1024 } });
    expect((await server.api(path, { json: { key: 'k'.repeat(1024), value: 1 } })).status).toBe(200);

    let deep: unknown = 1;
    for (let level = 0; level < 65; level++) deep = [deep];
    const tooDeep = await server.api(path, { json: { key: 'deep', value: deep } });
    expect(await tooDeep.json()).toMatchObject({ error: { code: 'INVALID_ARGUMENT', limit: 'nesting depth', maximum: 64 } });

    const hugeBody = await server.api(path, { json: { key: 'big', value: 'x'.repeat(1024 * 1024) } });
    // A body over its limit is 413 BODY_TOO_LARGE (decisions section 4); the other limits stay 400.
    expect(hugeBody.status).toBe(413);
    expect(await hugeBody.json()).toMatchObject({ error: { code: 'BODY_TOO_LARGE', limit: 'body size', maximum: 1024 * 1024 } });

    const chunk = 'y'.repeat(1000 * 1000);
    for (let index = 0; index < 4; index++) expect((await server.api(path, { json: { key: `c${index}`, value: chunk } })).status).toBe(200);
    const overFile = await server.api(path, { json: { key: 'c4', value: chunk } });
    expect(overFile.status).toBe(400);
    const error = ((await overFile.json()) as { error: { message: string } }).error;
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENT', limit: 'file size', maximum: 4 * 1024 * 1024 });
    expect(error.message).toContain('settings.json');
    const onDisk = JSON.parse(await readFile(join(pluginFolder, 'settings.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(onDisk).sort()).toEqual(['c0', 'c1', 'c2', 'c3', 'k'.repeat(1024)].sort());
  });

  it('refuses to read or overwrite a settings.json that is not a JSON object, naming the file', async () => {
    const { path, id, folder: pluginFolder } = await freshPlugin();
    for (const corrupt of ['{"a": 1,', '[1,2]', '"text"', '']) {
      await writeFile(join(pluginFolder, 'settings.json'), corrupt);
      for (const response of [await server.api(path), await server.api(path, { json: { key: 'b', value: 2 } })]) {
        expect(response.status).toBe(400);
        const body = (await response.json()) as { error: { code: string; message: string } };
        expect(body.error.code).toBe('INVALID_ARGUMENT');
        expect(body.error.message).toContain(`plugins/${id}/settings.json`);
        expect(body.error.message).not.toContain(server.dataDirectory);
      }
      expect(await readFile(join(pluginFolder, 'settings.json'), 'utf8')).toBe(corrupt);
    }
  });

  it('answers 404 PLUGIN_NOT_FOUND for a plugin that is not installed and writes nothing', async () => {
    for (const response of [
      await server.api('/api/plugins/settings/com.example.absent'),
      await server.api('/api/plugins/settings/com.example.absent', { json: { key: 'a', value: 1 } }),
    ]) {
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ error: { code: 'PLUGIN_NOT_FOUND', pluginId: 'com.example.absent' } });
    }
    await expect(readdir(join(server.dataDirectory, 'plugins', 'com.example.absent'))).rejects.toThrow();
  });

  // fetch resolves `..` and `%2e%2e` segments itself; raw forms are covered by the file route's table.
  it('refuses an invalid plugin id with 400', async () => {
    for (const id of ['Com.Example', 'nodots', 'com.example.x.bak-1.0.0', 'com%2eexample%2f..']) {
      const response = await server.api(`/api/plugins/settings/${id}`);
      expect(response.status, id).toBe(400);
    }
  });

  it('keeps settings in the plugin folder only', async () => {
    await server.api(URL_PATH, { json: { key: 'where', value: 'here' } });
    expect(JSON.parse(await readFile(join(folder, 'settings.json'), 'utf8'))).toMatchObject({ where: 'here' });
  });
});
