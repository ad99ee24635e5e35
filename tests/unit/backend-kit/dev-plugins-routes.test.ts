/**
 * The per-plugin routes besides files, settings and cache (shell, user files, WASM, downloads) for
 * a dev plugin: a real fake dev server on a free port and a real backend with `devPlugins: true`.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TestBackend, TestBackendOptions } from '../../support/local-backend.js';
import { buildWasmModule, op } from '../../support/wasm-builder.js';
import { devManifest, startDevPluginBackend, writeDevPluginsFile, type DevPluginBackend, type FakeDevServer } from './dev-plugins-support.js';
import { addTask, patternBytes, waitForTask } from './local-backend/downloads-support.js';
import { fileCall, installOnDisk } from './local-backend/filesystem-support.js';
import { errorOf, jsonOf } from './local-backend/plugins-support.js';
import { TEST_MODULE, WASI_MODULE, installWasmPlugin, memoryModule } from './local-backend/wasm-support.js';

const ID = 'com.example.devroutes';
const posix = process.platform !== 'win32';
const cleanup: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

type Fixture = DevPluginBackend;

/** A dev manifest that also runs WASM (layers l2 and l3, permission `wasm:execute`). */
const WASM_DEV_MANIFEST = devManifest(ID, { layers: ['l2', 'l3'], permissions: ['wasm:execute', 'filesystem:read', 'filesystem:write'] });

/** A module whose `on_load` answers `value`: two builds of a plugin that differ. */
function answering(value: number): Uint8Array {
  return buildWasmModule({ functions: [{ export: 'on_load', results: ['i32'], body: [op.i32Const(value)] }] });
}

function start(options: { installed?: 'manifest' | Uint8Array; backend?: (dev: FakeDevServer) => TestBackendOptions } = {}): Promise<Fixture> {
  const { installed, backend } = options;
  return startDevPluginBackend(ID, cleanup, {
    ...(installed === undefined
      ? {}
      : { prepare: (data: string) => (installed === 'manifest' ? installOnDisk(data, ID) : installWasmPlugin(data, ID, installed)) }),
    ...(backend ? { backend } : {}),
  });
}

/** Rewrites `.dev-plugins.json` and has the backend read it (the plugin list reads the file again). */
async function setDevEntries(fixture: Fixture, entries: Record<string, string>): Promise<void> {
  await writeDevPluginsFile(fixture.data, entries);
  expect((await fixture.server.api('/api/plugins/')).status).toBe(200);
}

async function outsideFolder(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'dev-plugins-outside-'));
  cleanup.push(() => rm(folder, { recursive: true, force: true }));
  return folder;
}

function shell(server: TestBackend, command: string): Promise<Response> {
  return server.api(`/api/plugins/shell/${ID}`, { json: { command } });
}

function invoke(server: TestBackend, exportName: string, args: number[] = []): Promise<Response> {
  return server.api(`/api/plugins/wasm/${ID}/invoke`, { json: { exportName, args } });
}

async function resultOf(server: TestBackend, exportName: string, args: number[] = []): Promise<unknown> {
  return (await jsonOf<{ ok: true; result: unknown }>(await invoke(server, exportName, args), 200)).result;
}

describe.runIf(posix)('POST /api/plugins/shell/:id of a dev plugin', () => {
  it('runs the command for a dev plugin that is not installed', async () => {
    const { server } = await start();
    const body = await jsonOf<{ exitCode: number; stdout: string }>(await shell(server, 'echo dev-shell'), 200);
    expect(body).toMatchObject({ exitCode: 0, stdout: 'dev-shell\n' });
  });

  it('answers as the file route does when the dev server is down: 502 PLUGIN_LOAD_FAILED, nothing run', async () => {
    const { dev, server } = await start();
    const marker = join(await outsideFolder(), 'ran');
    await dev.close();
    const error = await errorOf(await shell(server, `touch ${marker}`), 502);
    expect(error.code).toBe('PLUGIN_LOAD_FAILED');
    await expect(readFile(marker)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('the file bridge of a dev plugin', () => {
  it('authorizes, writes and reads for a dev plugin that is not installed', async () => {
    const fixture = await start();
    const folder = await outsideFolder();
    const path = join(folder, 'notes.txt');
    expect((await fileCall(fixture.server, ID, 'write', { path, content: 'first' })).status).toBe(403);
    expect((await fileCall(fixture.server, ID, 'authorize', { path: folder })).status).toBe(200);
    expect((await fileCall(fixture.server, ID, 'write', { path, content: 'from the dev build' })).status).toBe(200);
    const read = await fileCall(fixture.server, ID, 'read', { path, encoding: 'text' });
    expect(read).toMatchObject({ status: 200, body: { content: 'from the dev build' } });
    expect(await readFile(path, 'utf8')).toBe('from the dev build');
  });

  it('keeps the consents of the dev plugin and of the installed plugin of its id apart, both ways', async () => {
    const fixture = await start({ installed: 'manifest' });
    const devFolder = await outsideFolder();
    const installedFolder = await outsideFolder();
    const write = (folder: string) => fileCall(fixture.server, ID, 'write', { path: join(folder, 'a.txt'), content: 'x' });

    // The dev plugin is allowed its folder...
    expect((await fileCall(fixture.server, ID, 'authorize', { path: devFolder })).status).toBe(200);
    expect((await write(devFolder)).status).toBe(200);
    // ...which the installed plugin, once the dev server stops, is not.
    await setDevEntries(fixture, {});
    const refused = await write(devFolder);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'FS_AUTHORIZATION_REQUIRED', prefix: devFolder, pluginId: ID });

    // The installed plugin's consent does not reach the dev build either.
    expect((await fileCall(fixture.server, ID, 'authorize', { path: installedFolder })).status).toBe(200);
    expect((await write(installedFolder)).status).toBe(200);
    await setDevEntries(fixture, { [ID]: fixture.dev.url });
    const devRefused = await write(installedFolder);
    expect(devRefused.status).toBe(403);
    expect(devRefused.body.error).toMatchObject({ code: 'FS_AUTHORIZATION_REQUIRED', pluginId: ID });
    expect(String((devRefused.body.error as { message: string }).message)).toMatch(/dev plugin/);
    // Each still has its own.
    expect((await write(devFolder)).status).toBe(200);
  });

  it('checks a dev plugin download against the dev plugin own consents', async () => {
    const fixture = await start({ installed: 'manifest', backend: (dev) => ({ trustedHosts: [new URL(dev.url).host] }) });
    fixture.dev.files.set('payload.bin', { body: '', bytes: patternBytes(1000) });
    const folder = await outsideFolder();
    await setDevEntries(fixture, {});
    expect((await fileCall(fixture.server, ID, 'authorize', { path: folder })).status).toBe(200);
    await setDevEntries(fixture, { [ID]: fixture.dev.url });
    const task = { url: `${fixture.dev.url}payload.bin`, targetPath: join(folder, 'payload.bin') };
    const refused = await addTask(fixture.server, task, ID);
    expect(refused.status).toBe(403);
    expect(refused.body.error?.code).toBe('FS_AUTHORIZATION_REQUIRED');
    expect((await fileCall(fixture.server, ID, 'authorize', { path: folder })).status).toBe(200);
    expect((await addTask(fixture.server, task, ID)).status).toBe(201);
  });
});

describe('WASM of a dev plugin', () => {
  function withModule(dev: FakeDevServer, module: Uint8Array): void {
    dev.files.set('manifest.json', { body: WASM_DEV_MANIFEST });
    dev.files.set('plugin.wasm', { body: '', bytes: module });
  }

  it('lists and invokes the module its dev server serves, and takes a rebuilt module on the next call', async () => {
    const { dev, server } = await start();
    expect(await jsonOf(await server.api('/api/plugins/wasm'), 200)).toEqual([]);
    withModule(dev, TEST_MODULE);
    expect(await jsonOf(await server.api('/api/plugins/wasm'), 200)).toEqual([ID]);
    expect(await resultOf(server, 'add', [2, 3])).toBe(5);
    expect(await resultOf(server, 'on_load')).toBe(42);

    dev.files.set('plugin.wasm', { body: '', bytes: answering(43) });
    expect(await resultOf(server, 'on_load')).toBe(43);
    dev.files.set('plugin.wasm', { body: '', bytes: answering(44) });
    expect(await resultOf(server, 'on_load')).toBe(44);
    expect(dev.requested.filter((path) => path === '/plugin.wasm').length).toBeGreaterThanOrEqual(4);
  });

  it('refuses a module over the memory cap or outside the ABI, as for an installed one', async () => {
    const { dev, server } = await start({ backend: () => ({ wasmMemoryLimitBytes: 2 * 1024 * 1024 }) });
    withModule(dev, memoryModule({ min: 40 }));
    const tooBig = await errorOf(await invoke(server, 'pages'), 404);
    expect(tooBig.code).toBe('WASM_NOT_LOADED');
    expect(tooBig.message).toMatch(/2 MiB/);
    expect(await jsonOf(await server.api('/api/plugins/wasm'), 200)).toEqual([]);

    dev.files.set('plugin.wasm', { body: '', bytes: WASI_MODULE });
    const wasi = await errorOf(await invoke(server, 'on_load'), 404);
    expect(wasi.code).toBe('WASM_NOT_LOADED');
    expect(wasi.message).toMatch(/wasi_snapshot_preview1\.fd_write/);

    // The cap still holds for a module that loads: memory.grow past 2 MiB answers -1.
    dev.files.set('plugin.wasm', { body: '', bytes: memoryModule() });
    expect(await resultOf(server, 'grow', [31])).toBe(1);
    expect(await resultOf(server, 'grow', [32])).toBe(-1);
  });

  it('says why a dev plugin has no module, and answers as the file route when its dev server is down', async () => {
    const { dev, server } = await start();
    const noLayer = await errorOf(await invoke(server, 'on_load'), 404);
    expect(noLayer.message).toMatch(/"l3"/);
    dev.files.set('manifest.json', { body: WASM_DEV_MANIFEST });
    const noFile = await errorOf(await invoke(server, 'on_load'), 404);
    expect(noFile).toMatchObject({ code: 'WASM_NOT_LOADED' });
    expect(noFile.message).toMatch(/no plugin\.wasm/);
    await dev.close();
    expect((await errorOf(await invoke(server, 'on_load'), 502)).code).toBe('PLUGIN_LOAD_FAILED');
    expect(await jsonOf(await server.api('/api/plugins/wasm'), 200)).toEqual([]);
  });

  it('shadows an installed module of the same id while the dev plugin exists', async () => {
    const fixture = await start({ installed: TEST_MODULE });
    withModule(fixture.dev, answering(7));
    expect(await resultOf(fixture.server, 'on_load')).toBe(7);
    await setDevEntries(fixture, {});
    expect(await resultOf(fixture.server, 'on_load')).toBe(42);
    expect(await jsonOf(await fixture.server.api('/api/plugins/wasm'), 200)).toEqual([ID]);
  });
});

describe('downloads of a dev plugin', () => {
  it('starts a download for a dev plugin that is not installed; it lands where an installed plugin download would', async () => {
    const fixture = await start({ backend: (dev) => ({ trustedHosts: [new URL(dev.url).host] }) });
    const bytes = patternBytes(5000);
    fixture.dev.files.set('payload.bin', { body: '', bytes });
    const targetPath = join(fixture.data, 'downloads', 'payload.bin');
    const added = await addTask(fixture.server, { url: `${fixture.dev.url}payload.bin`, targetPath }, ID);
    expect(added.status).toBe(201);
    const done = await waitForTask(fixture.server, String(added.body.taskId), (snapshot) => snapshot.status === 'completed');
    expect(done.pluginId).toBe(ID);
    expect(Buffer.compare(await readFile(targetPath), bytes)).toBe(0);
    const own = await jsonOf<{ sessionId: string }[]>(await fixture.server.api('/api/plugins/download/tasks', { headers: { 'X-Plugin-Id': ID } }), 200);
    expect(own.map((task) => task.sessionId)).toEqual([added.body.taskId]);
  });
});

describe('a dev plugin whose entry is gone (and no installed copy)', () => {
  it('is 404 PLUGIN_NOT_FOUND for shell, user files and downloads, and has no WASM module', async () => {
    const fixture = await start();
    fixture.dev.files.set('manifest.json', { body: WASM_DEV_MANIFEST });
    fixture.dev.files.set('plugin.wasm', { body: '', bytes: TEST_MODULE });
    expect(await resultOf(fixture.server, 'on_load')).toBe(42);
    await setDevEntries(fixture, {});

    const folder = await outsideFolder();
    const refusals = [
      await shell(fixture.server, 'true'),
      await fixture.server.api(`/api/plugins/files/${ID}/read`, { json: { path: join(folder, 'a.txt'), encoding: 'text' } }),
      await fixture.server.api(`/api/plugins/files/${ID}/authorize`, { json: { path: folder } }),
      await fixture.server.api('/api/plugins/download/tasks', {
        json: { url: `${fixture.dev.url}payload.bin`, targetPath: join(fixture.data, 'downloads', 'x.bin') },
        headers: { 'X-Plugin-Id': ID },
      }),
      await fixture.server.api('/api/plugins/download/tasks', { headers: { 'X-Plugin-Id': ID } }),
    ];
    for (const response of refusals) expect((await errorOf(response, 404)).code).toBe('PLUGIN_NOT_FOUND');
    // WASM keeps its documented answer for a plugin it does not know: 404 WASM_NOT_LOADED naming why.
    const wasm = await errorOf(await invoke(fixture.server, 'on_load'), 404);
    expect(wasm.code).toBe('WASM_NOT_LOADED');
    expect(wasm.message).toMatch(/not installed/);
    expect(await jsonOf(await fixture.server.api('/api/plugins/wasm'), 200)).toEqual([]);
  });
});
