import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveBackendEndpoint } from '@plughost/host-sdk/core';
import { startTestBackend, type TestBackend, type TestBackendOptions } from '../../../support/local-backend.js';
import { testKeys } from '../../../support/plugin-package.js';
import { startFrontedRegistry, type FrontMode, type FrontedRegistry } from '../../../support/registry-sources.js';
import { errorOf, jsonOf } from './plugins-support.js';

const keys = testKeys();
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function backendWith(options: TestBackendOptions = {}): Promise<TestBackend> {
  const backend = await startTestBackend({ keys, ...options });
  closers.push(() => backend.close());
  return backend;
}

async function registry(mode: FrontMode = 'ok'): Promise<FrontedRegistry> {
  const front = await startFrontedRegistry(mode);
  closers.push(() => front.close());
  await front.registry.seed({ id: 'com.example.hello', slug: 'hello' });
  return front;
}

function patch(backend: TestBackend, body: unknown, init: { headers?: Record<string, string> } = {}): Promise<Response> {
  return backend.api('/api/launcher/settings', { method: 'PATCH', json: body, ...init });
}

type Settings = { installationId: string; telemetryEnabled: boolean; registryUrl: unknown[]; updateCheckHours: number };

describe('launcher-settings.json', () => {
  it('is created on the first start with a random installationId and the defaults, and kept across restarts', async () => {
    const dataDirectory = await mkdtemp(join(tmpdir(), 'launcher-settings-'));
    closers.push(() => rm(dataDirectory, { recursive: true, force: true }));
    const first = await startTestBackend({ keys, dataDirectory });
    const settings = await jsonOf<Settings>(await first.api('/api/launcher/settings'), 200);
    expect(settings).toEqual({ installationId: expect.stringMatching(/^[\w-]{8,}$/), telemetryEnabled: false, registryUrl: [], updateCheckHours: 6 });
    const onDisk = JSON.parse(await readFile(join(dataDirectory, 'launcher-settings.json'), 'utf8')) as Settings;
    expect(onDisk).toEqual(settings);
    await first.close({ keepData: true });

    const again = await backendWith({ dataDirectory });
    expect((await jsonOf<Settings>(await again.api('/api/launcher/settings'), 200)).installationId).toBe(settings.installationId);
    const other = await backendWith();
    expect((await jsonOf<Settings>(await other.api('/api/launcher/settings'), 200)).installationId).not.toBe(settings.installationId);
  });

  it('pins storeUrl (REGISTRY_URL) as the primary source with priority 0', async () => {
    const backend = await backendWith({ storeUrl: 'http://127.0.0.1:9/api/v1/', checkForUpdates: false });
    expect((await jsonOf<Settings>(await backend.api('/api/launcher/settings'), 200)).registryUrl).toEqual([
      { url: 'http://127.0.0.1:9/api/v1', primary: true, priority: 0, enabled: true },
    ]);
  });

  it('PATCH changes the given fields, writes the file, and keeps the pinned primary first', async () => {
    const backend = await backendWith({ storeUrl: 'http://127.0.0.1:9/api/v1', checkForUpdates: false });
    const before = await jsonOf<Settings>(await backend.api('/api/launcher/settings'), 200);
    const after = await jsonOf<Settings>(
      await patch(backend, {
        telemetryEnabled: true,
        updateCheckHours: 12,
        // The page sends back what it was given, the pinned primary included.
        registryUrl: [
          { url: 'http://127.0.0.1:9/api/v1', primary: true, priority: 0, enabled: true },
          { url: 'https://backup.example.com/api/v1/', priority: 3 },
          { url: 'https://off.example.com/api/v1', primary: false, priority: 4, enabled: false },
        ],
      }),
      200,
    );
    expect(after).toEqual({
      installationId: before.installationId,
      telemetryEnabled: true,
      updateCheckHours: 12,
      registryUrl: [
        { url: 'http://127.0.0.1:9/api/v1', primary: true, priority: 0, enabled: true },
        { url: 'https://backup.example.com/api/v1', primary: false, priority: 3, enabled: true },
        { url: 'https://off.example.com/api/v1', primary: false, priority: 4, enabled: false },
      ],
    });
    expect(await jsonOf(await backend.api('/api/launcher/settings'), 200)).toEqual(after);
    const onDisk = JSON.parse(await readFile(join(backend.dataDirectory, 'launcher-settings.json'), 'utf8')) as Settings;
    // The file keeps the user's sources; the pinned one comes from the launcher's configuration.
    expect(onDisk.registryUrl).toHaveLength(2);
    expect(await jsonOf(await patch(backend, { telemetryEnabled: false }), 200)).toMatchObject({ telemetryEnabled: false, updateCheckHours: 12 });
  });

  it('refuses what it cannot use with 400 INVALID_ARGUMENT naming the field, and changes nothing', async () => {
    const backend = await backendWith({ storeUrl: 'http://127.0.0.1:9/api/v1', checkForUpdates: false });
    const before = await jsonOf<Settings>(await backend.api('/api/launcher/settings'), 200);
    const source = (extra: Record<string, unknown>) => ({ url: 'https://backup.example.com/api/v1', ...extra });
    const cases: [unknown, string][] = [
      [{ installationId: 'mine-now-1234' }, 'installationId'],
      [{ theme: 'dark' }, 'theme'],
      [{ telemetryEnabled: 'yes' }, 'telemetryEnabled'],
      [{ updateCheckHours: 0 }, 'updateCheckHours'],
      [{ updateCheckHours: 169 }, 'updateCheckHours'],
      [{ updateCheckHours: '6' }, 'updateCheckHours'],
      [{ registryUrl: 'https://a.example.com' }, 'registryUrl'],
      [{ registryUrl: [source({ url: 'ftp://a.example.com/api/v1' })] }, 'registryUrl[0]'],
      [{ registryUrl: [source({ url: 'https://user:pw@a.example.com/api/v1' })] }, 'registryUrl[0]'],
      [{ registryUrl: [source({ url: 'https://a.example.com/api/v1?x=1' })] }, 'registryUrl[0]'],
      [{ registryUrl: [source({ priority: -1 })] }, 'registryUrl[0]'],
      [{ registryUrl: [source({ priority: 1.5 })] }, 'registryUrl[0]'],
      [{ registryUrl: [source({ enabled: 1 })] }, 'registryUrl[0]'],
      [{ registryUrl: [source({ mirror: true })] }, 'registryUrl[0]'],
      [{ registryUrl: [source({}), source({ priority: 2 })] }, 'registryUrl[1]'],
      [{ registryUrl: Array.from({ length: 17 }, (_, index) => source({ url: `https://s${index}.example.com` })) }, 'registryUrl'],
      // While the launcher pins a primary, the user's sources are backups.
      [{ registryUrl: [source({ primary: true })] }, 'registryUrl'],
    ];
    for (const [body, field] of cases) {
      const error = await errorOf(await patch(backend, body), 400);
      expect({ body, code: error.code, field: error.field }).toEqual({ body, code: 'INVALID_ARGUMENT', field });
    }
    expect(await jsonOf(await backend.api('/api/launcher/settings'), 200)).toEqual(before);

    // Without a pinned primary, one source may be primary, but not two.
    const free = await backendWith({ checkForUpdates: false });
    const two = { registryUrl: [source({ primary: true }), { url: 'https://b.example.com', primary: true }] };
    expect((await errorOf(await patch(free, two), 400)).field).toBe('registryUrl');
    expect(await jsonOf(await patch(free, { registryUrl: [source({ primary: true })] }), 200)).toMatchObject({
      registryUrl: [{ url: 'https://backup.example.com/api/v1', primary: true, priority: 0, enabled: true }],
    });
  });

  it('replaces an unreadable file by the defaults instead of failing the start', async () => {
    const dataDirectory = await mkdtemp(join(tmpdir(), 'launcher-settings-'));
    closers.push(() => rm(dataDirectory, { recursive: true, force: true }));
    await writeFile(join(dataDirectory, 'launcher-settings.json'), '{not json');
    const backend = await backendWith({ dataDirectory, checkForUpdates: false });
    expect(await jsonOf(await backend.api('/api/launcher/settings'), 200)).toMatchObject({ telemetryEnabled: false, updateCheckHours: 6 });
    await writeFile(
      join(dataDirectory, 'launcher-settings.json'),
      JSON.stringify({ installationId: 'kept-id-1234', telemetryEnabled: 'on', updateCheckHours: 2, registryUrl: [{ url: 'ftp://x' }] }),
    );
    await backend.close({ keepData: true });
    closers.pop();
    const repaired = await backendWith({ dataDirectory, checkForUpdates: false });
    expect(await jsonOf(await repaired.api('/api/launcher/settings'), 200)).toEqual({
      installationId: 'kept-id-1234',
      telemetryEnabled: false,
      registryUrl: [],
      updateCheckHours: 2,
    });
  });
});

describe('the launcher settings serve the launcher page only', () => {
  const routes: [string, string][] = [
    ['GET', '/api/launcher/settings'],
    ['PATCH', '/api/launcher/settings'],
    ['GET', '/api/registries'],
    ['POST', '/api/registries/retry'],
  ];

  it('needs the token', async () => {
    const backend = await backendWith({ checkForUpdates: false });
    for (const [method, path] of routes) expect((await backend.api(path, { method, token: null })).status).toBe(401);
  });

  it('answers a bridge call (X-Plugin-Id) as an unknown route, and changes nothing', async () => {
    const backend = await backendWith({ checkForUpdates: false });
    for (const [method, path] of routes) {
      const response = await backend.api(path, {
        method,
        headers: { 'X-Plugin-Id': 'com.example.hello' },
        ...(method === 'PATCH' ? { json: { telemetryEnabled: true } } : {}),
      });
      expect({ path, method, status: response.status, code: (await response.json()).error.code }).toEqual({ path, method, status: 404, code: 'NOT_FOUND' });
    }
    expect(await jsonOf(await backend.api('/api/launcher/settings'), 200)).toMatchObject({ telemetryEnabled: false });
  });

  it('is never forwarded by callBackend, even when a vendor lists the routes', () => {
    const allowedLauncherRoutes = ['/launcher', '/launcher/settings', '/instance'];
    for (const endpoint of ['/launcher/settings', '/launcher/settings?x=1', '/launcher/']) {
      expect(resolveBackendEndpoint(endpoint, { allowedLauncherRoutes }).kind).toBe('never');
    }
    // Not listed by the vendor: never; the update routes sit under /plugins (plugin:list's own method).
    expect(resolveBackendEndpoint('/registries', { allowedLauncherRoutes }).kind).toBe('never');
    expect(resolveBackendEndpoint('/registries/retry', { allowedLauncherRoutes }).kind).toBe('never');
    expect(resolveBackendEndpoint('/plugins/updates', { allowedLauncherRoutes })).toMatchObject({ kind: 'permission', permission: 'plugin:list' });
    expect(resolveBackendEndpoint('/plugins/com.example.hello/update', { allowedLauncherRoutes })).toMatchObject({ kind: 'permission' });
  });
});

describe('GET /api/registries', () => {
  it("reports each source's status after the discovery at start, and sources added in Settings", async () => {
    const [primary, backup, old] = await Promise.all([registry(), registry(), registry('old-api')]);
    const backend = await backendWith({ storeUrl: primary.base });
    expect(await jsonOf(await backend.api('/api/registries'), 200)).toEqual([
      {
        url: primary.base,
        primary: true,
        priority: 0,
        enabled: true,
        usable: true,
        active: true,
        apiVersion: '1.0',
        capabilities: expect.arrayContaining(['list', 'detail', 'download']),
        pluginCount: 1,
        lastError: null,
      },
    ]);
    await patch(backend, {
      registryUrl: [
        { url: backup.base, priority: 1 },
        { url: old.base, priority: 2 },
      ],
    });
    // A change of sources discovers at once; the status waits for it.
    await backend.backend.sources.discovered();
    const status = await jsonOf<{ url: string; usable: boolean; active: boolean; lastError: string | null }[]>(await backend.api('/api/registries'), 200);
    expect(status.map(({ url, usable, active }) => ({ url, usable, active }))).toEqual([
      { url: primary.base, usable: true, active: true },
      { url: backup.base, usable: true, active: false },
      { url: old.base, usable: false, active: false },
    ]);
    expect(status[2]?.lastError).toMatch(/0\.9/);
  });

  it('shows the disabled store (no active source) and Retry brings a recovered primary back', async () => {
    const primary = await registry('5xx');
    const backend = await backendWith({ storeUrl: primary.base });
    const down = await jsonOf<{ usable: boolean; active: boolean; lastError: string }[]>(await backend.api('/api/registries'), 200);
    expect(down).toEqual([expect.objectContaining({ usable: false, active: false, lastError: expect.stringMatching(/503/) })]);
    const install = await errorOf(await backend.api('/api/plugins/store-install', { json: { slug: 'hello' } }), 502);
    expect(install).toMatchObject({ code: 'STORE_UNAVAILABLE', message: expect.stringMatching(/^Store features are disabled/) });
    primary.mode = 'ok';
    expect(await jsonOf(await backend.api('/api/registries/retry', { method: 'POST' }), 200)).toEqual([
      expect.objectContaining({ usable: true, active: true, lastError: null }),
    ]);
  });
});
