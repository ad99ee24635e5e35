import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestBackend, type TestBackend } from '../../../support/local-backend.js';
import { sampleManifest } from '../../../support/plugin-package.js';
import { startFakeDevServer, writeDevPluginsFile } from '../dev-plugins-support.js';
import { backendWithScratch, developmentFolder, errorOf, jsonOf } from './plugins-support.js';

interface Listed {
  readonly id: string;
  readonly status: string;
  readonly manifest?: Record<string, unknown>;
  readonly dev?: unknown;
}

const ACTIVE = 'com.example.active';
const OFF = 'com.example.off';
const DISABLED = 'com.example.disabled';

/** Installs `manifest` from a development folder, enabled or not. */
async function install(backend: TestBackend, scratch: string, manifest: Record<string, unknown>, enable: boolean): Promise<void> {
  const folder = await developmentFolder(join(scratch, `${String(manifest.id)}-${String(manifest.version)}`), manifest);
  await jsonOf(await backend.api('/api/plugins/install', { json: { sourceDir: folder, enable } }), 201);
}

async function restart(backend: TestBackend): Promise<void> {
  await jsonOf(await backend.api('/api/launcher/restart', { method: 'POST' }), 202);
}

async function list(backend: TestBackend, query = ''): Promise<Listed[]> {
  return jsonOf<Listed[]>(await backend.api(`/api/plugins/${query}`), 200);
}

describe('GET /api/plugins/?include=manifest', () => {
  const fixture = backendWithScratch();

  /** One active plugin, one never enabled, one the user disabled (each after a restart). */
  async function threePlugins(): Promise<void> {
    const { backend, scratch } = fixture;
    await install(backend, scratch, sampleManifest({ id: ACTIVE, name: 'Active', unknownField: 'left out' }), true);
    await install(backend, scratch, sampleManifest({ id: OFF }), false);
    await install(backend, scratch, sampleManifest({ id: DISABLED }), true);
    await restart(backend);
    await jsonOf(await backend.api(`/api/plugins/${DISABLED}/state`, { method: 'PUT', json: { enabled: false } }), 200);
    await restart(backend);
  }

  it('adds the validated manifest to each active plugin only; without the parameter the list is as before', async () => {
    await threePlugins();
    const plain = await list(fixture.backend);
    expect(plain.map((plugin) => [plugin.id, plugin.status])).toEqual([
      [ACTIVE, 'active'],
      [DISABLED, 'disabled'],
      [OFF, 'installed'],
    ]);
    expect(plain.some((plugin) => 'manifest' in plugin)).toBe(false);

    const withManifests = await list(fixture.backend, '?include=manifest');
    const { unknownField: _left, ...expected } = sampleManifest({ id: ACTIVE, name: 'Active', unknownField: 'left out' });
    expect(withManifests.find((plugin) => plugin.id === ACTIVE)?.manifest).toEqual(expected);
    expect(withManifests.filter((plugin) => plugin.id !== ACTIVE).some((plugin) => 'manifest' in plugin)).toBe(false);
    // The rest of each entry is exactly the plain list's.
    expect(withManifests.map(({ manifest: _manifest, ...info }) => info)).toEqual(plain);
  });

  it('gives the manifest installed now: an overwrite shows at once (the kept manifest is never stale)', async () => {
    const { backend, scratch } = fixture;
    await install(backend, scratch, sampleManifest({ id: ACTIVE }), true);
    await restart(backend);
    expect((await list(backend, '?include=manifest'))[0]?.manifest).toMatchObject({ version: '1.0.0' });
    await install(backend, scratch, sampleManifest({ id: ACTIVE, version: '1.1.0', permissions: ['config:read'] }), true);
    const [entry] = await list(backend, '?include=manifest');
    // Still active until the restart (what the page loads now), with the manifest on disk now,
    // as the plugin file route serves it.
    expect(entry).toMatchObject({ status: 'active', restartPending: true, manifest: { version: '1.1.0', permissions: ['config:read'] } });
    const served = await jsonOf(await backend.api(`/api/plugins/${ACTIVE}/files/manifest.json`, { token: null }), 200);
    expect(served).toMatchObject({ version: '1.1.0' });
  });

  it('refuses any other value of include with 400 INVALID_ARGUMENT', async () => {
    for (const query of ['?include=page', '?include=', '?include=Manifest', '?include=manifest&include=manifest']) {
      expect(await errorOf(await fixture.backend.api(`/api/plugins/${query}`), 400), query).toMatchObject({
        code: 'INVALID_ARGUMENT',
        field: 'include',
      });
    }
  });

  it('still needs the token', async () => {
    expect((await fixture.backend.api('/api/plugins/?include=manifest', { token: null })).status).toBe(401);
  });
});

describe('GET /api/plugins/?include=manifest with dev plugins', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  it('gives a dev plugin no manifest, also in place of an active installed plugin of its id (its manifest comes from its dev server)', async () => {
    const scratch = await mkdtemp(join(tmpdir(), 'plugins-list-dev-'));
    cleanup.push(() => rm(scratch, { recursive: true, force: true }));
    const dev = await startFakeDevServer(ACTIVE);
    cleanup.push(() => dev.close());
    const data = join(scratch, 'data');
    const first = await startTestBackend({ dataDirectory: data });
    await install(first, scratch, sampleManifest({ id: ACTIVE }), true);
    await install(first, scratch, sampleManifest({ id: OFF }), true);
    await first.close({ keepData: true });
    await writeDevPluginsFile(data, { [ACTIVE]: dev.url });
    const backend = await startTestBackend({ dataDirectory: data, devPlugins: true });
    cleanup.push(() => backend.close());
    const listed = await list(backend, '?include=manifest');
    expect(listed.map((plugin) => [plugin.id, plugin.status, plugin.dev !== undefined, plugin.manifest !== undefined])).toEqual([
      [ACTIVE, 'active', true, false],
      [OFF, 'active', false, true],
    ]);
  });
});
