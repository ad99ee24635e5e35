import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ed25519PublicKeyFromSeed, keyIdOf, rolloutBucket, type UpdatesSnapshot } from '@plughost/host-sdk/core';
import type { FileBlobStore } from '@plughost/registry';
import { startTestBackend, type TestBackend, type TestBackendOptions } from '../../../support/local-backend.js';
import { consentedStoreInstall } from '../../../support/store-install.js';
import { sendFrom } from '../../registry/client-network-support.js';
import { sampleManifest, testKeys, type TestKeys } from '../../../support/plugin-package.js';
import {
  manualTimer,
  publishOn,
  startFrontedRegistry,
  startMirrorHost,
  type FrontedRegistry,
  type ManualTimer,
  type TestMirror,
} from '../../../support/registry-sources.js';
import { errorOf, jsonOf, packageFile, pluginsFolder, postPackage, scratchWithCleanups, versionSpec } from './plugins-support.js';

const keys = testKeys();
const otherDeveloper = testKeys(0x51, 0x53);
const CHECK = 'POST /api/v1/plugins/check-updates';
const BASE_PERMISSIONS = ['config:read', 'ui:toast'];

describe('plugin updates', () => {
  const fixture = scratchWithCleanups();

  async function registry(options: Parameters<typeof startFrontedRegistry>[1] = {}): Promise<FrontedRegistry> {
    return fixture.closeAfterTest(await startFrontedRegistry('ok', options));
  }

  async function mirrorHost(): Promise<TestMirror> {
    return fixture.closeAfterTest(await startMirrorHost());
  }

  async function backendFor(options: TestBackendOptions = {}): Promise<TestBackend> {
    return fixture.closeAfterTest(await startTestBackend({ keys, ...options }));
  }

  /** Publishes `com.example.hello` at `version` as slug `hello`, signed by `signer`, asking for `permissions`. */
  async function publishHello(
    front: FrontedRegistry,
    version: string,
    options: { permissions?: string[]; rolloutPercent?: number; signer?: TestKeys } = {},
  ): Promise<{ path: string; bytes: Uint8Array }> {
    const permissions = options.permissions ?? BASE_PERMISSIONS;
    const signer = options.signer ?? keys;
    const path = await packageFile(fixture.scratch, { ...versionSpec(version, signer), manifest: sampleManifest({ version, permissions }) });
    const bytes = new Uint8Array(await readFile(path));
    await publishOn(front, bytes, {
      id: 'com.example.hello',
      slug: 'hello',
      name: 'Hello',
      version,
      permissions,
      ...(options.rolloutPercent !== undefined ? { rolloutPercent: options.rolloutPercent } : {}),
      signerKeyId: keyIdOf(ed25519PublicKeyFromSeed(signer.developerSeed)),
    });
    return { path, bytes };
  }

  function check(backend: TestBackend): Promise<UpdatesSnapshot> {
    return backend.api('/api/plugins/updates/check', { method: 'POST' }).then((response) => jsonOf<UpdatesSnapshot>(response, 200));
  }

  function update(backend: TestBackend, body: unknown): Promise<Response> {
    return backend.api('/api/plugins/com.example.hello/update', { json: body });
  }

  async function installedVersion(backend: TestBackend): Promise<string | undefined> {
    const list = await jsonOf<{ version: string }[]>(await backend.api('/api/plugins/'), 200);
    return list[0]?.version;
  }

  /** A data folder whose launcher settings carry `installationId`. */
  async function dataFolderWithId(installationId: string): Promise<string> {
    const folder = join(fixture.scratch, `data-${installationId}`);
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'launcher-settings.json'), JSON.stringify({ installationId }));
    return folder;
  }

  it('offers a newer version with its added permissions, refuses it without consent (409, nothing installed), installs it with consent, and rollback brings the offer back', async () => {
    const store = await registry();
    await publishHello(store, '1.0.0');
    const backend = await backendFor({ storeUrl: store.base });
    await jsonOf(await consentedStoreInstall(backend, { slug: 'hello' }), 201);
    expect(await check(backend)).toEqual({ checkedAt: expect.any(String), updates: [] });

    await publishHello(store, '1.1.0', { permissions: [...BASE_PERMISSIONS, 'network:fetch', 'shell:execute'] });
    const offered = await check(backend);
    expect(offered.updates).toEqual([
      {
        id: 'com.example.hello',
        slug: 'hello',
        currentVersion: '1.0.0',
        latestVersion: '1.1.0',
        changelog: 'Changes of 1.1.0',
        publishedAt: expect.any(String),
        rolloutPercent: 100,
        addedPermissions: [
          { id: 'shell:execute', risk: 'danger' },
          { id: 'network:fetch', risk: expect.any(String) },
        ],
      },
    ]);
    expect(await jsonOf(await backend.api('/api/plugins/updates'), 200)).toEqual(offered);

    const refused = await errorOf(await update(backend, { version: '1.1.0', acceptPermissions: ['network:fetch'] }), 409);
    expect(refused).toMatchObject({
      code: 'CONSENT_REQUIRED',
      added: [
        { id: 'shell:execute', risk: 'danger' },
        { id: 'network:fetch', risk: expect.any(String) },
      ],
      message: expect.stringContaining('shell:execute'),
    });
    expect(await installedVersion(backend)).toBe('1.0.0');
    expect(await pluginsFolder(backend)).toEqual(['com.example.hello']);

    const updated = await jsonOf(await update(backend, { version: '1.1.0', acceptPermissions: ['network:fetch', 'shell:execute'] }), 200);
    expect(updated).toEqual({
      id: 'com.example.hello',
      name: 'Hello',
      version: '1.1.0',
      status: 'installed',
      enabled: false,
      hasRollback: true,
      store: { source: store.base, slug: 'hello' },
      restartPending: true,
    });
    expect(await pluginsFolder(backend)).toEqual(['com.example.hello', 'com.example.hello.bak-1.0.0']);
    expect((await jsonOf<UpdatesSnapshot>(await backend.api('/api/plugins/updates'), 200)).updates).toEqual([]);

    await jsonOf(await backend.api('/api/plugins/com.example.hello/rollback', { method: 'POST' }), 200);
    expect((await jsonOf<UpdatesSnapshot>(await backend.api('/api/plugins/updates'), 200)).updates).toEqual([
      expect.objectContaining({ currentVersion: '1.0.0', latestVersion: '1.1.0' }),
    ]);
    // The rolled-back version came from the store too: it is still checked.
    expect((await check(backend)).updates).toHaveLength(1);
  });

  it('PluginInfo says where the plugin came from and that the update waits for the restart (restartPending), also in the list', async () => {
    const store = await registry();
    await publishHello(store, '1.0.0');
    const backend = await backendFor({ storeUrl: store.base });
    const origin = { source: store.base, slug: 'hello' };
    const listed = async (): Promise<Record<string, unknown>> => (await jsonOf<Record<string, unknown>[]>(await backend.api('/api/plugins/'), 200))[0] ?? {};
    const restart = async (): Promise<void> => {
      await jsonOf(await backend.api('/api/launcher/restart', { method: 'POST' }), 202);
    };

    expect(await jsonOf(await consentedStoreInstall(backend, { slug: 'hello', enable: true }), 201)).toMatchObject({
      status: 'installed',
      store: origin,
      restartPending: true,
    });
    await restart();
    expect(await listed()).toEqual({
      id: 'com.example.hello',
      name: 'Hello',
      version: '1.0.0',
      status: 'active',
      enabled: true,
      hasRollback: false,
      store: origin,
    });

    await publishHello(store, '1.1.0');
    await check(backend);
    const updated = await jsonOf(await update(backend, { version: '1.1.0' }), 200);
    // The launcher still runs 1.0.0: the status is its, and the new version is marked as waiting.
    expect(updated).toEqual({
      id: 'com.example.hello',
      name: 'Hello',
      version: '1.1.0',
      status: 'active',
      enabled: true,
      hasRollback: true,
      store: origin,
      restartPending: true,
    });
    expect(await listed()).toEqual(updated);

    await restart();
    expect(await listed()).toEqual({
      id: 'com.example.hello',
      name: 'Hello',
      version: '1.1.0',
      status: 'active',
      enabled: true,
      hasRollback: true,
      store: origin,
    });
    // Rolling back after the restart puts a version on disk the launcher has not loaded.
    expect(await jsonOf(await backend.api('/api/plugins/com.example.hello/rollback', { method: 'POST' }), 200)).toEqual({
      id: 'com.example.hello',
      name: 'Hello',
      version: '1.0.0',
      status: 'active',
      enabled: true,
      hasRollback: false,
      store: origin,
      restartPending: true,
    });
  });

  it('a store install of a newer version over an installed plugin follows the same consent rule', async () => {
    const store = await registry();
    await publishHello(store, '1.0.0');
    await publishHello(store, '2.0.0', { permissions: [...BASE_PERMISSIONS, 'filesystem:read'] });
    const backend = await backendFor({ storeUrl: store.base });
    await jsonOf(await consentedStoreInstall(backend, { slug: 'hello', version: '1.0.0' }), 201);
    const refused = await errorOf(await backend.api('/api/plugins/store-install', { json: { slug: 'hello' } }), 409);
    expect(refused).toMatchObject({ code: 'CONSENT_REQUIRED', added: [{ id: 'filesystem:read', risk: expect.any(String) }] });
    expect(await installedVersion(backend)).toBe('1.0.0');
    const accepted = await backend.api('/api/plugins/store-install', { json: { slug: 'hello', acceptPermissions: ['filesystem:read'] } });
    expect(await jsonOf(accepted, 201)).toMatchObject({ version: '2.0.0', hasRollback: true });
  });

  it('keeps the signer and revocation rules: another developer is SIGNER_CHANGED, and bad bodies are 400', async () => {
    const store = await registry();
    await publishHello(store, '1.0.0');
    await publishHello(store, '1.1.0', { signer: otherDeveloper });
    const backend = await backendFor({ storeUrl: store.base });
    await jsonOf(await consentedStoreInstall(backend, { slug: 'hello', version: '1.0.0' }), 201);
    expect((await errorOf(await update(backend, { version: '1.1.0' }), 409)).code).toBe('SIGNER_CHANGED');
    expect(await installedVersion(backend)).toBe('1.0.0');
    for (const [body, field] of [
      [{}, 'version'],
      [{ version: 'latest' }, 'version'],
      [{ version: '1.1.0', acceptPermissions: 'all' }, 'acceptPermissions'],
      [{ version: '1.1.0', force: true }, 'force'],
    ] as const) {
      expect(await errorOf(await update(backend, body), 400)).toMatchObject({ code: 'INVALID_ARGUMENT', field });
    }
    expect((await errorOf(await backend.api('/api/plugins/com.example.other/update', { json: { version: '1.0.0' } }), 404)).code).toBe('PLUGIN_NOT_FOUND');
  });

  it('checks only store-installed plugins: an upload (even over a store install) has no slug and no store updates', async () => {
    const store = await registry();
    await publishHello(store, '1.0.0');
    await publishHello(store, '1.2.0');
    const backend = await backendFor({ storeUrl: store.base });
    const upload = await packageFile(fixture.scratch, versionSpec('1.1.0', keys));
    await jsonOf(await postPackage(backend, upload), 201);
    const before = store.countOf(CHECK);
    expect((await check(backend)).updates).toEqual([]);
    expect(store.countOf(CHECK)).toBe(before);
    const error = await errorOf(await update(backend, { version: '1.2.0' }), 400);
    expect(error.message).toMatch(/installed from a file/);

    // A store install gives it a slug; an upload over it takes that away again.
    await jsonOf(await consentedStoreInstall(backend, { slug: 'hello', version: '1.0.0', allowDowngrade: true }), 201);
    expect((await check(backend)).updates).toEqual([expect.objectContaining({ latestVersion: '1.2.0' })]);
    await jsonOf(await postPackage(backend, await packageFile(fixture.scratch, versionSpec('1.1.0', keys))), 201);
    expect((await check(backend)).updates).toEqual([]);
  });

  it('rollout: 0 % is never offered, 100 % always, and a partial rollout depends on the installation, stably', async () => {
    const store = await registry();
    await publishHello(store, '1.0.0');
    await publishHello(store, '1.1.0', { rolloutPercent: 0 });
    // Two installation ids on either side of a 50 % rollout of hello@1.1.0.
    const ids = Array.from({ length: 40 }, (_, index) => `installation-${index}`);
    const inside = ids.find((id) => rolloutBucket(id, 'hello', '1.1.0') < 50) as string;
    const outside = ids.find((id) => rolloutBucket(id, 'hello', '1.1.0') >= 50) as string;
    const backendIn = await backendFor({ storeUrl: store.base, dataDirectory: await dataFolderWithId(inside) });
    const backendOut = await backendFor({ storeUrl: store.base, dataDirectory: await dataFolderWithId(outside) });
    for (const backend of [backendIn, backendOut]) {
      await jsonOf(await consentedStoreInstall(backend, { slug: 'hello', version: '1.0.0' }), 201);
      expect((await check(backend)).updates).toEqual([]);
    }
    const version = (await store.registry.registry.catalog.version('hello', '1.1.0')) as { id: string };
    await store.registry.registry.catalog.setRolloutPercent(version.id, 50);
    for (let round = 0; round < 2; round += 1) {
      expect((await check(backendIn)).updates).toEqual([expect.objectContaining({ latestVersion: '1.1.0', rolloutPercent: 50 })]);
      expect((await check(backendOut)).updates).toEqual([]);
    }
    await store.registry.registry.catalog.setRolloutPercent(version.id, 100);
    expect((await check(backendOut)).updates).toEqual([expect.objectContaining({ latestVersion: '1.1.0', rolloutPercent: 100 })]);
  });

  it('checks after start and every updateCheckHours on the injected clock, refreshing the revocation list each time', async () => {
    const store = await registry();
    await publishHello(store, '1.0.0');
    const first = await startTestBackend({ keys, storeUrl: store.base, dataDirectory: join(fixture.scratch, 'data') });
    await jsonOf(await consentedStoreInstall(first, { slug: 'hello' }), 201);
    await first.close({ keepData: true });
    await publishHello(store, '1.1.0');

    const timer: ManualTimer = manualTimer();
    const checksBefore = store.countOf(CHECK);
    const revokedBefore = store.countOf('GET /api/v1/developer/keys/revoked');
    const backend = await backendFor({ storeUrl: store.base, dataDirectory: join(fixture.scratch, 'data'), timer });
    await store.receivedOf(CHECK, checksBefore + 1);
    // The check that started with the backend is joined here, not repeated.
    const afterStart = await backend.backend.updates.check();
    expect(afterStart.updates).toEqual([expect.objectContaining({ latestVersion: '1.1.0' })]);
    expect(store.countOf(CHECK)).toBe(checksBefore + 1);
    expect(store.countOf('GET /api/v1/developer/keys/revoked')).toBe(revokedBefore + 1);

    await backend.backend.updates.whenIdle();
    // Only the schedule waits now: no call of the finished check holds a deadline.
    expect(timer.pending()).toBe(1);
    timer.advance(6 * 3_600_000 - 1);
    expect(store.countOf(CHECK)).toBe(checksBefore + 1);
    timer.advance(1);
    await store.receivedOf(CHECK, checksBefore + 2);
    await backend.backend.updates.whenIdle();
    expect(store.countOf('GET /api/v1/developer/keys/revoked')).toBe(revokedBefore + 2);

    // A shorter interval in Settings reschedules the next check.
    expect(timer.pending()).toBe(1);
    await jsonOf(await backend.api('/api/launcher/settings', { method: 'PATCH', json: { updateCheckHours: 1 } }), 200);
    timer.advance(3_600_000);
    await store.receivedOf(CHECK, checksBefore + 3);
  });

  it('with the primary stopped, checks and installs fall back to the backup, downloading from its listed mirror too', async () => {
    const mirror = await mirrorHost();
    const primary = await registry();
    const backup = await registry({ mirrors: [mirror.host] });
    await publishHello(primary, '1.0.0');
    await publishHello(backup, '1.0.0');
    const { bytes } = await publishHello(backup, '1.1.0');
    await publishHello(primary, '1.1.0');
    // The backup's own copy is corrupt: only the mirror's bytes pass the SHA-256 check.
    const stored = (await backup.registry.registry.catalog.version('hello', '1.1.0')) as { sha256: string };
    const blob = (backup.registry.registry.context.blobs as FileBlobStore).pathOf(stored.sha256);
    const corrupt = await readFile(blob);
    corrupt[0] = (corrupt[0] ?? 0) ^ 0xff;
    await writeFile(blob, corrupt);
    // The registry writes https mirror URLs; the test mirror speaks plain http.
    backup.transform = (_path, body) => body.replaceAll(`https://${mirror.host}`, mirror.origin);
    const packagePath = '/api/v1/plugins/hello/versions/1.1.0/package';
    mirror.files.set(packagePath, bytes);

    const backend = await backendFor({ storeUrl: primary.base, trustedHosts: [mirror.host] });
    await jsonOf(await backend.api('/api/launcher/settings', { method: 'PATCH', json: { registryUrl: [{ url: backup.base, priority: 1 }] } }), 200);
    await jsonOf(await consentedStoreInstall(backend, { slug: 'hello', version: '1.0.0' }), 201);
    await primary.stopFront();

    expect((await check(backend)).updates).toEqual([expect.objectContaining({ latestVersion: '1.1.0' })]);
    expect(backup.countOf(CHECK)).toBe(1);
    expect(await jsonOf(await update(backend, { version: '1.1.0' }), 200)).toMatchObject({ version: '1.1.0' });
    expect(mirror.requests).toEqual([packagePath]);
    const status = await jsonOf<{ url: string; active: boolean; usable: boolean }[]>(await backend.api('/api/registries'), 200);
    expect(status.map(({ url, active, usable }) => ({ url, active, usable }))).toEqual([
      { url: primary.base, active: false, usable: false },
      { url: backup.base, active: true, usable: true },
    ]);
  });

  it('a plugin installed from a backup source while the primary was down is checked on its source (the primary does not list it) and updated from there', async () => {
    const primary = await registry();
    const backup = await registry();
    await publishHello(backup, '1.0.0');
    const backend = await backendFor({ storeUrl: primary.base });
    primary.mode = '5xx';
    await jsonOf(await backend.api('/api/launcher/settings', { method: 'PATCH', json: { registryUrl: [{ url: backup.base, priority: 1 }] } }), 200);
    const installed = await jsonOf(await consentedStoreInstall(backend, { slug: 'hello', version: '1.0.0' }), 201);
    expect(installed).toMatchObject({ version: '1.0.0', store: { source: backup.base, slug: 'hello' } });

    // The primary is back and active again; only the backup has hello, and now 1.1.0 of it.
    primary.mode = 'ok';
    await publishHello(backup, '1.1.0');
    const checksOnPrimary = primary.countOf(CHECK);
    expect((await check(backend)).updates).toEqual([expect.objectContaining({ id: 'com.example.hello', slug: 'hello', latestVersion: '1.1.0' })]);
    expect(primary.countOf(CHECK)).toBe(checksOnPrimary + 1);
    const asked = JSON.parse(backup.bodies.get('/api/v1/plugins/check-updates')?.at(-1) ?? '{}') as { installed?: unknown[] };
    expect(asked.installed).toEqual([{ slug: 'hello', version: '1.0.0' }]);

    // The update downloads from the source that offered it, and the plugin stays the backup's.
    const packagePath = 'GET /api/v1/plugins/hello/versions/1.1.0/package';
    expect(await jsonOf(await update(backend, { version: '1.1.0' }), 200)).toMatchObject({ version: '1.1.0', store: { source: backup.base, slug: 'hello' } });
    expect(backup.countOf(packagePath)).toBe(1);
    expect(primary.countOf(packagePath)).toBe(0);

    // A recorded source the user turned off is not asked.
    await publishHello(backup, '1.2.0');
    await jsonOf(
      await backend.api('/api/launcher/settings', { method: 'PATCH', json: { registryUrl: [{ url: backup.base, priority: 1, enabled: false }] } }),
      200,
    );
    const checksOnBackup = backup.countOf(CHECK);
    expect((await check(backend)).updates).toEqual([]);
    expect(backup.countOf(CHECK)).toBe(checksOnBackup);
  });

  it('does not offer a version the store paused for error reports', async () => {
    const store = await registry({ pauseThreshold: 0 });
    await publishHello(store, '1.0.0');
    const backend = await backendFor({ storeUrl: store.base });
    await jsonOf(await consentedStoreInstall(backend, { slug: 'hello' }), 201);
    await publishHello(store, '1.1.0');
    expect((await check(backend)).updates).toHaveLength(1);
    // Two reporter networks that run 1.1.0 (each lists it in a check-updates first: decisions
    // section 12) are more than the threshold of 0 and than 2 % of their installed base of 2. They
    // talk to the registry itself: through the front, every client would be one network.
    const report = { pluginId: 'com.example.hello', pluginVersion: '1.1.0', errorType: 'plugin_runtime_error', launcherVersion: '1.0.0' };
    const running = { launcherVersion: '1.0.0', installed: [{ slug: 'hello', version: '1.1.0' }] };
    for (const localAddress of ['127.0.61.1', '127.0.62.1']) {
      expect((await sendFrom(`${store.registry.base}/plugins/check-updates`, { json: running, localAddress })).status).toBe(200);
      expect((await sendFrom(`${store.registry.base}/telemetry/plugin-error`, { json: report, localAddress })).status).toBe(202);
    }
    expect((await check(backend)).updates).toEqual([]);
  });
});
