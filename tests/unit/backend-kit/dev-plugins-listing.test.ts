import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEV_PLUGINS_FILE_NAME, type PluginInfo } from '@plughost/host-sdk/core';
import type { BackendLogger } from '@plughost/backend-kit';
import { startTestBackend, type TestBackend, type TestBackendOptions } from '../../support/local-backend.js';
import { installOnDisk } from './local-backend/filesystem-support.js';
import { devManifest, startFakeDevServer, writeDevPluginsFile, type FakeDevServer } from './dev-plugins-support.js';

const ID = 'com.example.devplugin';
const cleanup: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function devServer(id = ID): Promise<FakeDevServer> {
  const server = await startFakeDevServer(id);
  cleanup.push(() => server.close());
  return server;
}

async function dataDirectory(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'dev-plugins-'));
}

async function backend(options: TestBackendOptions): Promise<TestBackend> {
  const started = await startTestBackend({ devPluginReconnectDelaysMs: [20, 50], ...options });
  cleanup.push(() => started.close());
  return started;
}

async function listed(server: TestBackend): Promise<PluginInfo[]> {
  const response = await server.api('/api/plugins/');
  expect(response.status).toBe(200);
  return (await response.json()) as PluginInfo[];
}

function recordingLogger(): BackendLogger & { readonly warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, info: () => {}, warn: (message) => warnings.push(message), error: (message) => warnings.push(message) };
}

describe('GET /api/plugins/ with dev plugins', () => {
  it('lists each plugin of .dev-plugins.json as an active dev plugin, from its manifest', async () => {
    const dev = await devServer();
    const data = await dataDirectory();
    await writeDevPluginsFile(data, { [ID]: dev.url });
    const server = await backend({ dataDirectory: data, devPlugins: true });
    expect(await listed(server)).toEqual([
      { id: ID, name: `Dev ${ID}`, version: '0.1.0', status: 'active', enabled: true, hasRollback: false, dev: { url: dev.url } },
    ]);
    expect(dev.requested).toContain('/manifest.json');
  });

  it('ignores the file when the option is off (release mode): nothing listed, nothing fetched, no events route', async () => {
    const dev = await devServer();
    const data = await dataDirectory();
    await writeDevPluginsFile(data, { [ID]: dev.url });
    for (const options of [{}, { devPlugins: false }]) {
      const server = await backend({ dataDirectory: data, ...options });
      expect(await listed(server)).toEqual([]);
      expect((await server.api(`/api/plugins/${ID}/files/index.html`, { token: null })).status).toBe(404);
      const events = await server.api('/api/plugins/dev/events');
      expect(events.status).toBe(404);
      expect(((await events.json()) as { error: { message: string } }).error.message).toMatch(/development mode/);
    }
    expect(dev.requested).toEqual([]);
  });

  it('refuses entries that are not on this machine, and logs what to do', async () => {
    const dev = await devServer();
    const data = await dataDirectory();
    await writeDevPluginsFile(data, { [ID]: dev.url, 'com.example.far': 'http://192.168.1.20:5173/', 'com.example.named': 'http://example.com/' });
    const logger = recordingLogger();
    const server = await backend({ dataDirectory: data, devPlugins: true, logger });
    expect((await listed(server)).map((plugin) => plugin.id)).toEqual([ID]);
    expect(logger.warnings.filter((line) => /com\.example\.(far|named).*not on this machine.*pluginctl dev/.test(line))).toHaveLength(2);
  });

  it('keeps the last readable entries while the file is empty or not JSON (saved in place, halfway)', async () => {
    const dev = await devServer();
    const data = await dataDirectory();
    await writeDevPluginsFile(data, { [ID]: dev.url });
    const logger = recordingLogger();
    const server = await backend({ dataDirectory: data, devPlugins: true, logger });
    expect((await listed(server)).map((plugin) => plugin.id)).toEqual([ID]);
    await writeFile(join(data, DEV_PLUGINS_FILE_NAME), '');
    expect((await listed(server)).map((plugin) => plugin.id)).toEqual([ID]);
    await writeFile(join(data, DEV_PLUGINS_FILE_NAME), '{"com.example.devplugin": "http://127.0');
    expect((await listed(server)).map((plugin) => plugin.id)).toEqual([ID]);
    expect(logger.warnings.some((line) => /not valid JSON.*stay until it is fixed/.test(line))).toBe(true);
    await writeFile(join(data, DEV_PLUGINS_FILE_NAME), '{}');
    expect(await listed(server)).toEqual([]);
  });

  it('lists a dev plugin whose dev server is down as not loadable, with the reason, and keeps serving', async () => {
    const dev = await devServer();
    const url = dev.url;
    await dev.close();
    const data = await dataDirectory();
    await writeDevPluginsFile(data, { [ID]: url });
    const server = await backend({ dataDirectory: data, devPlugins: true });
    const [plugin] = await listed(server);
    expect(plugin).toMatchObject({ id: ID, status: 'installed', enabled: true, dev: { url } });
    expect(plugin?.dev?.problem).toMatch(/not reachable.*pluginctl dev/);
    const file = await server.api(`/api/plugins/${ID}/files/index.html`, { token: null });
    expect(file.status).toBe(502);
    expect(((await file.json()) as { error: { code: string } }).error.code).toBe('PLUGIN_LOAD_FAILED');
    expect((await server.api('/api/health', { token: null })).status).toBe(200);
  });

  it('lists a dev plugin with an invalid or mismatched manifest as not loadable, naming the problem', async () => {
    const dev = await devServer();
    const data = await dataDirectory();
    dev.files.set('manifest.json', { body: devManifest('com.example.other') });
    await writeDevPluginsFile(data, { [ID]: dev.url });
    const server = await backend({ dataDirectory: data, devPlugins: true });
    const [plugin] = await listed(server);
    expect(plugin).toMatchObject({ id: ID, status: 'installed' });
    expect(plugin?.dev?.problem).toMatch(/serves plugin com\.example\.other/);
    const manifest = await server.api(`/api/plugins/${ID}/files/manifest.json`, { token: null });
    expect(manifest.status).toBe(400);
    expect(((await manifest.json()) as { error: { code: string } }).error.code).toBe('INVALID_MANIFEST');
  });

  it('takes the place of an installed plugin of the same id, which the lifecycle routes then leave alone', async () => {
    const dev = await devServer();
    const data = await dataDirectory();
    await installOnDisk(data, ID);
    await installOnDisk(data, 'com.example.other');
    await writeDevPluginsFile(data, { [ID]: dev.url });
    const server = await backend({ dataDirectory: data, devPlugins: true });
    const plugins = await listed(server);
    expect(plugins.map((plugin) => [plugin.id, plugin.dev !== undefined])).toEqual([
      [ID, true],
      ['com.example.other', false],
    ]);
    const refusals = [
      await server.api(`/api/plugins/${ID}`, { method: 'DELETE' }),
      await server.api(`/api/plugins/${ID}/state`, { method: 'PUT', json: { enabled: false } }),
      await server.api(`/api/plugins/${ID}/rollback`, { method: 'POST' }),
      await server.api(`/api/plugins/${ID}/update`, { json: { version: '2.0.0' } }),
    ];
    for (const response of refusals) {
      expect(response.status).toBe(400);
      const { error } = (await response.json()) as { error: { code: string; message: string } };
      expect(error.code).toBe('INVALID_ARGUMENT');
      expect(error.message).toMatch(/dev plugin served by a running `pluginctl dev`.*stop its dev server/);
    }
    // The installed copy is still there, whole.
    await writeDevPluginsFile(data, {});
    const after = await listed(server);
    expect(after.map((plugin) => [plugin.id, plugin.dev !== undefined, plugin.name])).toEqual([
      [ID, false, 'Hello'],
      ['com.example.other', false, 'Hello'],
    ]);
    expect((await server.api(`/api/plugins/${ID}/state`, { method: 'PUT', json: { enabled: true } })).status).toBe(200);
  });
});
