import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startTestBackend } from '../../../support/local-backend.js';
import { sampleManifest, testKeys } from '../../../support/plugin-package.js';
import {
  backendWithScratch,
  developmentFolder,
  errorOf,
  jsonOf,
  packageFile,
  pluginText,
  pluginsFolder,
  postPackage,
  temporaryLeftovers,
  versionSpec,
} from './plugins-support.js';

const keys = testKeys();
const otherDeveloper = testKeys(0x51, 0x53);
const ID = 'com.example.hello';

describe('overwrite install', () => {
  const fixture = backendWithScratch({ keys });

  async function upload(spec: Parameters<typeof packageFile>[1], status = 201): Promise<Response> {
    const response = await postPackage(fixture.backend, await packageFile(fixture.scratch, spec));
    expect(response.status).toBe(status);
    return response;
  }

  async function writeUserData(settings: string, cache: string): Promise<void> {
    const folder = join(fixture.backend.dataDirectory, 'plugins', ID);
    await writeFile(join(folder, 'settings.json'), settings);
    await writeFile(join(folder, 'cache.json'), cache);
  }

  it('keeps settings.json, cache.json and enabled, snapshots the old version and keeps status until restart', async () => {
    await upload({ ...versionSpec('1.0.0', keys), manifest: sampleManifest({ version: '1.0.0' }) });
    await jsonOf(await fixture.backend.api(`/api/plugins/${ID}/state`, { method: 'PUT', json: { enabled: true } }), 200);
    await jsonOf(await fixture.backend.api('/api/launcher/restart', { method: 'POST' }), 202);
    await writeUserData('{"theme":"dark"}', '{"k":{"v":1,"e":null}}');

    const body = await jsonOf(await upload(versionSpec('2.0.0', keys)), 201);
    expect(body).toMatchObject({ id: ID, version: '2.0.0', enabled: true, status: 'active', hasRollback: true });
    expect(await pluginsFolder(fixture.backend)).toEqual([ID, `${ID}.bak-1.0.0`]);
    expect(await pluginText(fixture.backend, ID, 'dist/main.js')).toContain('2.0.0');
    expect(await pluginText(fixture.backend, ID, 'settings.json')).toBe('{"theme":"dark"}');
    expect(await pluginText(fixture.backend, ID, 'cache.json')).toBe('{"k":{"v":1,"e":null}}');
    expect(await pluginText(fixture.backend, `${ID}.bak-1.0.0`, 'dist/main.js')).toContain('1.0.0');
    // `status` is the loaded version's until the restart; `restartPending` says so.
    expect(await jsonOf(await fixture.backend.api('/api/plugins/'), 200)).toEqual([
      { id: ID, name: 'Hello', version: '2.0.0', status: 'active', enabled: true, hasRollback: true, restartPending: true },
    ]);
    expect(await temporaryLeftovers(fixture.backend)).toEqual([]);
  });

  it('keeps only the newest snapshot', async () => {
    for (const version of ['1.0.0', '1.1.0', '1.2.0']) await upload(versionSpec(version, keys));
    expect(await pluginsFolder(fixture.backend)).toEqual([ID, `${ID}.bak-1.1.0`]);
    // Reinstalling the same version replaces the snapshot of that version too.
    await upload(versionSpec('1.2.0', keys, 'again'));
    expect(await pluginsFolder(fixture.backend)).toEqual([ID, `${ID}.bak-1.2.0`]);
    expect(await pluginText(fixture.backend, `${ID}.bak-1.2.0`, 'dist/main.js')).toContain('1.2.0');
    expect(await pluginText(fixture.backend, ID, 'dist/main.js')).toContain('again');
  });

  it('refuses another developer key with 409 SIGNER_CHANGED and keeps the installed version', async () => {
    await upload(versionSpec('1.0.0', keys));
    const response = await upload(versionSpec('2.0.0', otherDeveloper), 409);
    expect(await errorOf(response, 409)).toMatchObject({ code: 'SIGNER_CHANGED', pluginId: ID });
    expect(await pluginsFolder(fixture.backend)).toEqual([ID]);
    expect(await pluginText(fixture.backend, ID, 'dist/main.js')).toContain('1.0.0');
    expect(await temporaryLeftovers(fixture.backend)).toEqual([]);
  });

  it('compares developerId when both certificates carry one (key rotation), else key ids', async () => {
    await upload({ ...versionSpec('1.0.0', keys), certificateExtra: { developerId: 'dev-1' } });
    await upload({ ...versionSpec('1.1.0', otherDeveloper), certificateExtra: { developerId: 'dev-1' } });
    await errorOf(await upload({ ...versionSpec('1.2.0', otherDeveloper), certificateExtra: { developerId: 'dev-2' } }, 409), 409);
    // Without a developerId on the new certificate, the key must match the installed one's.
    await upload(versionSpec('1.3.0', otherDeveloper));
    await errorOf(await upload(versionSpec('1.4.0', keys), 409), 409);
  });

  it('refuses an unsigned development folder over a signed install, but lets anything replace an unsigned one', async () => {
    await upload(versionSpec('1.0.0', keys));
    const dev = await developmentFolder(join(fixture.scratch, 'dev'), sampleManifest({ version: '1.1.0-dev' }));
    const refused = await errorOf(await fixture.backend.api('/api/plugins/install', { json: { sourceDir: dev } }), 409);
    expect(refused).toMatchObject({ code: 'SIGNER_CHANGED', message: expect.stringContaining('unsigned') });

    expect((await fixture.backend.api(`/api/plugins/${ID}`, { method: 'DELETE' })).status).toBe(204);
    await jsonOf(await fixture.backend.api('/api/plugins/install', { json: { sourceDir: dev } }), 201);
    await jsonOf(await fixture.backend.api('/api/plugins/install', { json: { sourceDir: dev } }), 201);
    expect(await jsonOf(await upload(versionSpec('2.0.0', otherDeveloper)), 201)).toMatchObject({ version: '2.0.0', hasRollback: true });
  });
});

describe('POST /api/plugins/<id>/rollback', () => {
  const fixture = backendWithScratch({ keys });

  const upload = async (version: string): Promise<void> => {
    await jsonOf(await postPackage(fixture.backend, await packageFile(fixture.scratch, versionSpec(version, keys))), 201);
  };
  const rollback = (id = ID): Promise<Response> => fixture.backend.api(`/api/plugins/${id}/rollback`, { method: 'POST' });

  it('restores the old version with the current settings, deletes the replaced version, keeps enabled and status', async () => {
    await upload('1.0.0');
    await jsonOf(await fixture.backend.api(`/api/plugins/${ID}/state`, { method: 'PUT', json: { enabled: true } }), 200);
    await upload('2.0.0');
    await writeFile(join(fixture.backend.dataDirectory, 'plugins', ID, 'settings.json'), '{"set":"in 2.0.0"}');
    // The snapshot's own stale copy is replaced by the current one.
    await writeFile(join(fixture.backend.dataDirectory, 'plugins', `${ID}.bak-1.0.0`, 'cache.json'), '{"stale":{"v":0,"e":null}}');

    const body = await jsonOf(await rollback(), 200);
    // Never loaded (no restart since the first upload), so a restart is still pending.
    expect(body).toEqual({ id: ID, name: 'Hello', version: '1.0.0', status: 'installed', enabled: true, hasRollback: false, restartPending: true });
    expect(await pluginsFolder(fixture.backend)).toEqual([ID]);
    expect(await pluginText(fixture.backend, ID, 'dist/main.js')).toContain('1.0.0');
    expect(await pluginText(fixture.backend, ID, 'settings.json')).toBe('{"set":"in 2.0.0"}');
    await expect(pluginText(fixture.backend, ID, 'cache.json')).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await jsonOf(await fixture.backend.api('/api/plugins/'), 200)).toMatchObject([{ version: '1.0.0', hasRollback: false }]);
    expect(await temporaryLeftovers(fixture.backend)).toEqual([]);

    // A second rollback has nothing left to restore.
    expect((await errorOf(await rollback(), 404)).code).toBe('ROLLBACK_NOT_AVAILABLE');
    // The restored version's signer is kept: the same developer can update again.
    await upload('3.0.0');
  });

  it('404 ROLLBACK_NOT_AVAILABLE without a snapshot, PLUGIN_NOT_FOUND without the plugin, 400 for a bad id', async () => {
    await upload('1.0.0');
    expect(await errorOf(await rollback(), 404)).toMatchObject({ code: 'ROLLBACK_NOT_AVAILABLE', pluginId: ID });
    expect((await errorOf(await rollback('com.example.absent'), 404)).code).toBe('PLUGIN_NOT_FOUND');
    expect((await errorOf(await rollback('../hello'), 404)).code).toBe('NOT_FOUND');
    expect((await errorOf(await rollback('hello'), 400)).code).toBe('INVALID_ARGUMENT');
  });

  it('refuses a snapshot whose manifest is another plugin', async () => {
    await upload('1.0.0');
    await upload('2.0.0');
    const snapshot = join(fixture.backend.dataDirectory, 'plugins', `${ID}.bak-1.0.0`);
    const manifest = JSON.parse(await readFile(join(snapshot, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    await writeFile(join(snapshot, 'manifest.json'), JSON.stringify({ ...manifest, id: 'com.example.intruder' }));
    expect((await errorOf(await rollback(), 404)).code).toBe('ROLLBACK_NOT_AVAILABLE');
    expect(await pluginText(fixture.backend, ID, 'dist/main.js')).toContain('2.0.0');
  });

  it('restores a snapshot the records do not know of', async () => {
    await upload('1.0.0');
    await upload('2.0.0');
    const plugins = join(fixture.backend.dataDirectory, 'plugins');
    await rename(join(plugins, `${ID}.bak-1.0.0`), join(plugins, `${ID}.bak-0.9.0`));
    expect(await jsonOf(await rollback(), 200)).toMatchObject({ version: '1.0.0', hasRollback: false });
  });
});

describe('restartPending', () => {
  const fixture = backendWithScratch({ keys });

  const upload = async (version: string, marker = version): Promise<Record<string, unknown>> =>
    jsonOf(await postPackage(fixture.backend, await packageFile(fixture.scratch, versionSpec(version, keys, marker))), 201);
  const restart = async (): Promise<void> => {
    await jsonOf(await fixture.backend.api('/api/launcher/restart', { method: 'POST' }), 202);
  };
  const setEnabled = async (enabled: boolean): Promise<void> => {
    await jsonOf(await fixture.backend.api(`/api/plugins/${ID}/state`, { method: 'PUT', json: { enabled } }), 200);
  };
  /** The listed plugin's `version`, `status` and `restartPending` (absent when false). */
  const listed = async (): Promise<Record<string, unknown>> => {
    const [info] = await jsonOf<Record<string, unknown>[]>(await fixture.backend.api('/api/plugins/'), 200);
    const { version, status, restartPending } = info ?? {};
    return { version, status, ...(restartPending !== undefined ? { restartPending } : {}) };
  };

  it('is set by an install, an enable switch, an overwrite and a rollback, and cleared by a restart or by changes that cancel out', async () => {
    expect(await upload('1.0.0')).toMatchObject({ restartPending: true });
    expect(await listed()).toEqual({ version: '1.0.0', status: 'installed', restartPending: true });
    await restart();
    expect(await listed()).toEqual({ version: '1.0.0', status: 'installed' });

    // The switch: pending while it differs from what was loaded, not when turned back.
    await setEnabled(true);
    expect(await listed()).toEqual({ version: '1.0.0', status: 'installed', restartPending: true });
    await setEnabled(false);
    expect(await listed()).toEqual({ version: '1.0.0', status: 'installed' });
    await setEnabled(true);
    await restart();
    expect(await listed()).toEqual({ version: '1.0.0', status: 'active' });

    // An overwrite keeps the loaded version's status, never "active" for 2.0.0 without a flag.
    expect(await upload('2.0.0')).toMatchObject({ version: '2.0.0', status: 'active', restartPending: true });
    expect(await listed()).toEqual({ version: '2.0.0', status: 'active', restartPending: true });
    // Rolling back to the loaded copy before the restart leaves nothing pending.
    const rolledBack = await jsonOf(await fixture.backend.api(`/api/plugins/${ID}/rollback`, { method: 'POST' }), 200);
    expect(rolledBack).toEqual({ id: ID, name: 'Hello', version: '1.0.0', status: 'active', enabled: true, hasRollback: false });
    expect(await listed()).toEqual({ version: '1.0.0', status: 'active' });

    // Another copy of the same version is not what was loaded either.
    expect(await upload('1.0.0', 'rebuilt')).toMatchObject({ version: '1.0.0', restartPending: true });
    await restart();
    expect(await listed()).toEqual({ version: '1.0.0', status: 'active' });
    // A rollback after the restart restores a copy the launcher has not loaded.
    await upload('1.1.0');
    await restart();
    expect(await jsonOf(await fixture.backend.api(`/api/plugins/${ID}/rollback`, { method: 'POST' }), 200)).toMatchObject({
      version: '1.0.0',
      restartPending: true,
    });
  });

  it('an uninstall and a reinstall of the same version is pending; a real restart of the backend clears it', async () => {
    await upload('1.0.0');
    await setEnabled(true);
    await restart();
    expect(await listed()).toEqual({ version: '1.0.0', status: 'active' });
    expect((await fixture.backend.api(`/api/plugins/${ID}`, { method: 'DELETE' })).status).toBe(204);
    expect(await upload('1.0.0')).toMatchObject({ status: 'installed', enabled: false, restartPending: true });
    await setEnabled(true);
    expect(await listed()).toEqual({ version: '1.0.0', status: 'installed', restartPending: true });

    await fixture.backend.close({ keepData: true });
    fixture.backend = await startTestBackend({ dataDirectory: fixture.backend.dataDirectory, keys });
    expect(await listed()).toEqual({ version: '1.0.0', status: 'active' });
  });
});
