import { mkdtemp, rm, symlink, unlink, writeFile } from 'node:fs/promises';
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
  readonly page?: string;
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
    for (const query of [
      '?include=pages',
      '?include=',
      '?include=Manifest',
      '?include=manifest,manifest',
      '?include=manifest,',
      '?include=manifest&include=page',
    ]) {
      expect(await errorOf(await fixture.backend.api(`/api/plugins/${query}`), 400), query).toMatchObject({
        code: 'INVALID_ARGUMENT',
        field: 'include',
      });
    }
  });

  it('with include=page, gives each active plugin its page as the file route serves it, and the page on disk now', async () => {
    const { backend, scratch } = fixture;
    await install(backend, scratch, sampleManifest({ id: ACTIVE }), true);
    await install(backend, scratch, sampleManifest({ id: OFF }), false);
    await restart(backend);
    const served = async (): Promise<string> => (await backend.api(`/api/plugins/${ACTIVE}/files/dist/index.html`, { token: null })).text();
    const [active, off] = await list(backend, '?include=page,manifest');
    expect(active?.page).toBe(await served());
    expect(active?.manifest).toMatchObject({ id: ACTIVE });
    expect(off).not.toHaveProperty('page');
    expect((await list(backend, '?include=page'))[0]).not.toHaveProperty('manifest');
    // An edit is seen at once (the kept text is never stale); a BOM is dropped, as `response.text()` drops it.
    const page = join(backend.dataDirectory, 'plugins', ACTIVE, 'dist', 'index.html');
    const edited = (await served()).replace('Hello', 'Howdy');
    await writeFile(page, `\uFEFF${edited}`);
    expect((await list(backend, '?include=page'))[0]?.page).toBe(edited);
    expect(await served()).toBe(edited);
  });

  it('leaves out a page the file route would not serve or that is over 64 KiB', async () => {
    const { backend, scratch } = fixture;
    await install(backend, scratch, sampleManifest({ id: ACTIVE }), true);
    await restart(backend);
    const page = join(backend.dataDirectory, 'plugins', ACTIVE, 'dist', 'index.html');
    await writeFile(page, `<!doctype html><p>${'x'.repeat(64 * 1024)}</p>`);
    expect((await list(backend, '?include=page'))[0]).not.toHaveProperty('page');
    // A link out of the plugin's folder: the file route refuses it, the list leaves it out.
    const outside = join(scratch, 'outside.html');
    await writeFile(outside, '<p>secret</p>');
    await unlink(page);
    await symlink(outside, page);
    expect((await backend.api(`/api/plugins/${ACTIVE}/files/dist/index.html`, { token: null })).status).toBe(404);
    expect((await list(backend, '?include=page'))[0]).not.toHaveProperty('page');
    await unlink(page);
    expect((await list(backend, '?include=manifest,page'))[0]).toMatchObject({ id: ACTIVE, manifest: { id: ACTIVE } });
    expect((await list(backend, '?include=manifest,page'))[0]).not.toHaveProperty('page');
  });

  it('still needs the token', async () => {
    expect((await fixture.backend.api('/api/plugins/?include=manifest', { token: null })).status).toBe(401);
  });
});

describe('GET /api/plugins/?include=manifest,page with dev plugins', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  it('gives a dev plugin no manifest and no page, also in place of an active installed plugin of its id (its manifest comes from its dev server)', async () => {
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
    const listed = await list(backend, '?include=manifest,page');
    expect(listed.map((plugin) => [plugin.id, plugin.status, plugin.dev !== undefined, plugin.manifest !== undefined, plugin.page !== undefined])).toEqual([
      [ACTIVE, 'active', true, false, false],
      [OFF, 'active', false, true, true],
    ]);
  });
});
