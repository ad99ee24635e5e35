import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { rawRequest } from '../../support/raw-http.js';
import { installOnDisk } from './local-backend/filesystem-support.js';
import { startDevPluginBackend, writeDevPluginsFile, type DevPluginBackend } from './dev-plugins-support.js';

const ID = 'com.example.devplugin';
const cleanup: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

function start(options: { installedToo?: boolean } = {}): Promise<DevPluginBackend> {
  return startDevPluginBackend(ID, cleanup, options.installedToo ? { prepare: (data) => installOnDisk(data, ID) } : {});
}

async function errorOf(response: Response): Promise<{ code: string; message: string }> {
  return ((await response.json()) as { error: { code: string; message: string } }).error;
}

describe('GET /api/plugins/:id/files/* of a dev plugin', () => {
  it('serves the files of the dev server without a token, inert, never cached, with an allowed content type', async () => {
    const { dev, server } = await start();
    const page = await server.api(`/api/plugins/${ID}/files/index.html`, { token: null });
    expect(page.status).toBe(200);
    expect(await page.text()).toBe(dev.files.get('index.html')?.body);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('content-security-policy')).toBe('sandbox allow-scripts');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('access-control-allow-origin')).toBe('*');

    const script = await server.api(`/api/plugins/${ID}/files/assets/app.js`, { token: null });
    expect(await script.text()).toBe('console.log("dev build 1");\n');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');

    // A new build is served at once.
    dev.files.set('assets/app.js', { body: 'console.log("dev build 2");\n' });
    expect(await (await server.api(`/api/plugins/${ID}/files/assets/app.js`, { token: null })).text()).toBe('console.log("dev build 2");\n');

    // A type on the file route's list is passed on in its served form; one outside it gives way to the extension's.
    dev.files.set('notes.txt', { body: '<script>alert(1)</script>', contentType: 'text/html' });
    dev.files.set('odd.js', { body: '1', contentType: 'application/x-unheard-of' });
    expect((await server.api(`/api/plugins/${ID}/files/notes.txt`, { token: null })).headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect((await server.api(`/api/plugins/${ID}/files/odd.js`, { token: null })).headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(dev.requested).toEqual(expect.arrayContaining(['/index.html', '/assets/app.js', '/notes.txt', '/odd.js']));
  });

  it('asks the dev server for exactly the path requested, percent-encoded segment by segment', async () => {
    const { dev, server } = await start();
    dev.files.set('assets/a b#c.js', { body: 'spaced' });
    const response = await server.api(`/api/plugins/${ID}/files/assets/a%20b%23c.js`, { token: null });
    expect(await response.text()).toBe('spaced');
    expect(dev.requested).toContain('/assets/a%20b%23c.js');
  });

  it('refuses traversal and the backend-written names before asking the dev server', async () => {
    const { dev, server } = await start();
    const before = dev.requested.length;
    for (const path of ['..%2Fsecret', '%2e%2e/secret', 'assets/..%5Csecret', 'a//b', 'assets/%2e/app.js', '%ZZ']) {
      const response = await rawRequest(server.origin, `/api/plugins/${ID}/files/${path}`);
      expect(response.status, path).toBe(400);
    }
    for (const path of ['/api/plugins/com.example.devplugin/files/../../plugins/', '/api/plugins/com.example.devplugin/files/./index.html']) {
      const response = await rawRequest(server.origin, path);
      expect([400, 404], path).toContain(response.status);
    }
    for (const name of ['settings.json', 'cache.json', 'SETTINGS.JSON']) {
      const response = await server.api(`/api/plugins/${ID}/files/${name}`, { token: null });
      expect(response.status, name).toBe(404);
    }
    expect(dev.requested.slice(before)).toEqual([]);
  });

  it('answers 404 for a file the dev server does not have, and a validated manifest', async () => {
    const { dev, server } = await start();
    const missing = await server.api(`/api/plugins/${ID}/files/nothing.js`, { token: null });
    expect(missing.status).toBe(404);
    expect((await errorOf(missing)).code).toBe('NOT_FOUND');
    const manifest = await server.api(`/api/plugins/${ID}/files/manifest.json`, { token: null });
    expect(manifest.status).toBe(200);
    expect(await manifest.json()).toMatchObject({ id: ID, version: '0.1.0' });
    dev.files.set('manifest.json', { body: '{"id": "com.example.devplugin", "id": "com.example.devplugin"}' });
    const repeated = await server.api(`/api/plugins/${ID}/files/manifest.json`, { token: null });
    expect(repeated.status).toBe(400);
    expect((await errorOf(repeated)).code).toBe('INVALID_MANIFEST');
  });
});

describe('settings and cache of a dev plugin', () => {
  it('live under dev/<id>/, apart from the installed plugin of the same id, which keeps its own', async () => {
    const { server, data } = await start({ installedToo: true });
    const saved = await server.api(`/api/plugins/settings/${ID}`, { json: { key: 'theme', value: 'dev' } });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toEqual({ theme: 'dev' });
    expect(JSON.parse(await readFile(join(data, 'dev', ID, 'settings.json'), 'utf8'))).toEqual({ theme: 'dev' });
    await expect(stat(join(data, 'plugins', ID, 'settings.json'))).rejects.toMatchObject({ code: 'ENOENT' });

    const cached = await server.api(`/api/plugins/cache/${ID}`, { json: { key: 'feed', value: [1, 2] } });
    expect(cached.status).toBe(200);
    expect(await (await server.api(`/api/plugins/cache/${ID}?key=feed`)).json()).toEqual({ key: 'feed', value: [1, 2] });
    expect(JSON.parse(await readFile(join(data, 'dev', ID, 'cache.json'), 'utf8'))).toMatchObject({ feed: { v: [1, 2] } });

    // Once the dev server is gone, the installed plugin's own (empty) settings are back.
    await writeDevPluginsFile(data, {});
    expect((await (await server.api('/api/plugins/')).json()) as unknown[]).toHaveLength(1);
    expect(await (await server.api(`/api/plugins/settings/${ID}`)).json()).toEqual({});
    expect(JSON.parse(await readFile(join(data, 'dev', ID, 'settings.json'), 'utf8'))).toEqual({ theme: 'dev' });
  });

  it('work for a dev plugin that is not installed, and are never served as plugin files', async () => {
    const { server } = await start();
    expect((await server.api(`/api/plugins/settings/${ID}`, { json: { key: 'k', value: 1 } })).status).toBe(200);
    expect(await (await server.api(`/api/plugins/settings/${ID}`)).json()).toEqual({ k: 1 });
    expect((await server.api(`/api/plugins/${ID}/files/settings.json`, { token: null })).status).toBe(404);
  });
});
