import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PluginInfo } from '@plughost/host-sdk/core';
import { startTestBackend, type TestBackend } from '../../support/local-backend.js';
import { rawRequest } from '../../support/raw-http.js';
import {
  eventually,
  readEvents,
  removeDevPluginsFile,
  startFakeDevServer,
  writeDevPluginsFile,
  type EventReader,
  type FakeDevServer,
} from './dev-plugins-support.js';

const ID = 'com.example.devplugin';
const cleanup: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function devServer(id = ID): Promise<FakeDevServer> {
  const server = await startFakeDevServer(id);
  cleanup.push(() => server.close());
  return server;
}

async function backend(data: string): Promise<TestBackend> {
  const server = await startTestBackend({ dataDirectory: data, devPlugins: true, devPluginReconnectDelaysMs: [20, 50] });
  cleanup.push(() => server.close());
  return server;
}

async function events(server: TestBackend): Promise<EventReader> {
  const response = await server.api('/api/plugins/dev/events', { headers: { accept: 'text/event-stream' } });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const reader = readEvents(response);
  cleanup.push(() => reader.close());
  return reader;
}

async function listedIds(server: TestBackend): Promise<string[]> {
  return ((await (await server.api('/api/plugins/')).json()) as PluginInfo[]).map((plugin) => plugin.id);
}

describe('GET /api/plugins/dev/events', () => {
  it('relays building, build-failed (with its output) and rebuilt from the dev server, with the same data', async () => {
    const dev = await devServer();
    const data = await mkdtemp(join(tmpdir(), 'dev-plugins-'));
    await writeDevPluginsFile(data, { [ID]: dev.url });
    const server = await backend(data);
    const reader = await events(server);
    await dev.whenStreams(1);

    dev.publish({ type: 'building', pluginId: ID, at: '2026-11-30T10:00:00.000Z' });
    expect(JSON.parse((await reader.next('building')).data)).toEqual({ pluginId: ID, at: '2026-11-30T10:00:00.000Z' });

    const output = "src/main.tsx(3,1): error TS1005: ';' expected.";
    dev.publish({ type: 'build-failed', pluginId: ID, at: '2026-11-30T10:00:01.000Z', output });
    expect(JSON.parse((await reader.next('build-failed')).data)).toEqual({ pluginId: ID, at: '2026-11-30T10:00:01.000Z', output });

    // A page that connects now learns of the failure at once.
    const late = await events(server);
    expect(JSON.parse((await late.next('build-failed')).data)).toMatchObject({ pluginId: ID, output });

    dev.files.set('manifest.json', { body: JSON.stringify({ ...JSON.parse(dev.files.get('manifest.json')?.body ?? '{}'), version: '0.2.0' }) });
    dev.publish({ type: 'rebuilt', pluginId: ID, at: '2026-11-30T10:00:02.000Z', durationMs: 640 });
    // The new manifest is read before the page is told to reload the frame.
    expect(JSON.parse((await reader.next('list-changed')).data)).toEqual({ pluginIds: [ID] });
    expect(JSON.parse((await reader.next('rebuilt')).data)).toEqual({ pluginId: ID, at: '2026-11-30T10:00:02.000Z', durationMs: 640 });
    expect(((await (await server.api('/api/plugins/')).json()) as PluginInfo[])[0]?.version).toBe('0.2.0');

    // Fixed: a page that connects now gets no stale failure.
    const fresh = await events(server);
    dev.publish({ type: 'building', pluginId: ID, at: '2026-11-30T10:00:03.000Z' });
    await fresh.next('building');
    await expect(fresh.next('build-failed', 200)).rejects.toThrow(/No "build-failed"/);
  });

  it('ignores events about plugins the file does not give to that dev server, and malformed ones', async () => {
    const dev = await devServer();
    const data = await mkdtemp(join(tmpdir(), 'dev-plugins-'));
    await writeDevPluginsFile(data, { [ID]: dev.url });
    const server = await backend(data);
    const reader = await events(server);
    await dev.whenStreams(1);
    dev.publish({ type: 'rebuilt', pluginId: 'com.example.stranger', at: '2026-11-30T10:00:00.000Z', durationMs: 1 });
    dev.publish({ type: 'building', pluginId: ID, at: '2026-11-30T10:00:01.000Z' });
    const first = await reader.next('building');
    expect(JSON.parse(first.data)).toMatchObject({ pluginId: ID });
    await expect(reader.next('rebuilt', 200)).rejects.toThrow(/No "rebuilt"/);
  });

  it('follows the file: a dev server that starts later appears, one that stops disappears, without a restart', async () => {
    const data = await mkdtemp(join(tmpdir(), 'dev-plugins-'));
    const server = await backend(data);
    const reader = await events(server);
    expect(await listedIds(server)).toEqual([]);

    const dev = await devServer();
    await writeDevPluginsFile(data, { [ID]: dev.url });
    expect(JSON.parse((await reader.next('list-changed')).data)).toEqual({ pluginIds: [ID] });
    expect(await listedIds(server)).toEqual([ID]);
    await dev.whenStreams(1);

    const second = await devServer('com.example.second');
    await writeDevPluginsFile(data, { [ID]: dev.url, 'com.example.second': second.url });
    expect(JSON.parse((await reader.next('list-changed')).data)).toEqual({ pluginIds: [ID, 'com.example.second'] });

    await writeDevPluginsFile(data, { 'com.example.second': second.url });
    expect(JSON.parse((await reader.next('list-changed')).data)).toEqual({ pluginIds: ['com.example.second'] });
    await removeDevPluginsFile(data);
    expect(JSON.parse((await reader.next('list-changed')).data)).toEqual({ pluginIds: [] });
    expect(await listedIds(server)).toEqual([]);
  });

  it('marks the plugin of a dev server that stops answering, and clears it when the server is back', async () => {
    const dev = await devServer();
    const data = await mkdtemp(join(tmpdir(), 'dev-plugins-'));
    await writeDevPluginsFile(data, { [ID]: dev.url });
    const server = await backend(data);
    const reader = await events(server);
    await dev.whenStreams(1);
    const port = Number(new URL(dev.url).port);
    await dev.close();
    await reader.next('list-changed');
    const [down] = (await (await server.api('/api/plugins/')).json()) as PluginInfo[];
    expect(down).toMatchObject({ id: ID, status: 'installed' });
    expect(down?.dev?.problem).toMatch(/stopped answering.*pluginctl dev/);

    // The same address serves again: the link reconnects by itself.
    const back = await startFakeDevServerOn(port);
    await back.whenStreams(1);
    const plugin = await eventually('the plugin to be loadable again', async () => {
      const [listed] = (await (await server.api('/api/plugins/')).json()) as PluginInfo[];
      return listed?.status === 'active' ? listed : undefined;
    });
    expect(plugin.dev).toEqual({ url: dev.url });
  });

  it('loads the plugin of a dev server that sends no rebuild notices, and says so once in the log', async () => {
    const dev = await startFakeDevServer(ID, { events: false });
    cleanup.push(() => dev.close());
    const data = await mkdtemp(join(tmpdir(), 'dev-plugins-'));
    await writeDevPluginsFile(data, { [ID]: dev.url });
    const warnings: string[] = [];
    const server = await startTestBackend({
      dataDirectory: data,
      devPlugins: true,
      devPluginReconnectDelaysMs: [5],
      logger: { info: () => {}, warn: (message) => warnings.push(message), error: () => {} },
    });
    cleanup.push(() => server.close());
    // Several attempts at the event stream, all refused.
    await eventually('three attempts', async () => (dev.requested.filter((path) => path === '/__pluginctl/events').length >= 3 ? true : undefined));
    expect(((await (await server.api('/api/plugins/')).json()) as PluginInfo[])[0]).toMatchObject({ id: ID, status: 'active', dev: { url: dev.url } });
    expect(warnings.filter((line) => line.includes('sends no rebuild notices'))).toHaveLength(1);
  });

  it('needs the token and a Host naming the backend, like every API route', async () => {
    const data = await mkdtemp(join(tmpdir(), 'dev-plugins-'));
    const server = await backend(data);
    expect((await server.api('/api/plugins/dev/events', { token: null })).status).toBe(401);
    const foreign = await rawRequest(server.origin, '/api/plugins/dev/events', {
      headers: { Host: 'evil.example:80', Authorization: `Bearer ${server.token}` },
    });
    expect(foreign.status).toBe(403);
  });
});

/** A fake dev server of {@link ID} on a given port (the one a stopped server had). */
async function startFakeDevServerOn(port: number): Promise<FakeDevServer> {
  const server = await startFakeDevServer(ID, { port });
  cleanup.push(() => server.close());
  return server;
}
