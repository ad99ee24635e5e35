import { mkdir, readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { startTestBackend } from '../../../support/local-backend.js';
import { sampleManifest, testKeys } from '../../../support/plugin-package.js';
import { backendWithScratch, errorOf, jsonOf, packageFile, pluginsFolder, postPackage, versionSpec } from './plugins-support.js';

const keys = testKeys();
const ID = 'com.example.hello';

describe('PUT /api/plugins/<id>/state and POST /api/launcher/restart', () => {
  const fixture = backendWithScratch({ keys });

  beforeEach(async () => {
    await jsonOf(await postPackage(fixture.backend, await packageFile(fixture.scratch, { keys })), 201);
  });

  const setState = (enabled: unknown, id = ID): Promise<Response> => fixture.backend.api(`/api/plugins/${id}/state`, { method: 'PUT', json: { enabled } });
  const list = async (): Promise<{ status: string; enabled: boolean }[]> => jsonOf(await fixture.backend.api('/api/plugins/'), 200);

  it('enable: the status stays until the launcher restarts, then the plugin is active', async () => {
    expect(await jsonOf(await setState(true), 200)).toEqual({ id: ID, enabled: true, status: 'installed', restartRequired: true });
    expect(await list()).toMatchObject([{ status: 'installed', enabled: true }]);
    expect(await jsonOf(await fixture.backend.api('/api/launcher/restart', { method: 'POST' }), 202)).toEqual({ restarting: true });
    expect(await list()).toMatchObject([{ status: 'active', enabled: true }]);
  });

  it('the choice survives a real restart of the backend, and the record lives outside the plugin folder', async () => {
    await jsonOf(await setState(true), 200);
    await fixture.backend.close({ keepData: true });
    fixture.backend = await startTestBackend({ dataDirectory: fixture.backend.dataDirectory, keys });
    expect(await list()).toMatchObject([{ status: 'active', enabled: true }]);
    expect(await readdir(join(fixture.backend.dataDirectory, 'plugins', ID))).not.toContain('plugins.json');
    const records = JSON.parse(await readFile(join(fixture.backend.dataDirectory, 'backend', 'plugins.json'), 'utf8')) as {
      plugins: Record<string, unknown>;
    };
    expect(records.plugins[ID]).toMatchObject({ enabled: true, signer: { keyId: expect.any(String) }, installedAt: expect.any(String) });
  });

  it('disable: disabled after the restart; enabling again makes it active after the next', async () => {
    await jsonOf(await setState(true), 200);
    await jsonOf(await fixture.backend.api('/api/launcher/restart', { method: 'POST' }), 202);
    expect(await jsonOf(await setState(false), 200)).toEqual({ id: ID, enabled: false, status: 'active', restartRequired: true });
    expect(await list()).toMatchObject([{ status: 'active', enabled: false }]);
    await fixture.backend.close({ keepData: true });
    fixture.backend = await startTestBackend({ dataDirectory: fixture.backend.dataDirectory, keys });
    expect(await list()).toMatchObject([{ status: 'disabled', enabled: false }]);
    await jsonOf(await setState(true), 200);
    await jsonOf(await fixture.backend.api('/api/launcher/restart', { method: 'POST' }), 202);
    expect(await list()).toMatchObject([{ status: 'active', enabled: true }]);
  });

  it('an enabled plugin without entry.frontend stays installed', async () => {
    const manifest = sampleManifest({ id: 'com.example.theme', entry: { theme: 'dist/theme.css' } });
    const path = await packageFile(fixture.scratch, { keys, manifest, files: { 'dist/theme.css': ':root{}' } });
    await jsonOf(await postPackage(fixture.backend, path, { query: '?enable=true' }), 201);
    await jsonOf(await fixture.backend.api('/api/launcher/restart', { method: 'POST' }), 202);
    const plugins = await jsonOf<{ id: string; status: string }[]>(await fixture.backend.api('/api/plugins/'), 200);
    expect(plugins.find((plugin) => plugin.id === 'com.example.theme')).toMatchObject({ status: 'installed' });
  });

  it('refuses a body without a boolean enabled', async () => {
    for (const enabled of ['true', 1, null, undefined]) {
      expect(await errorOf(await setState(enabled), 400)).toMatchObject({ code: 'INVALID_ARGUMENT', field: 'enabled' });
    }
  });

  it('404 PLUGIN_NOT_FOUND for a plugin that is not installed; 400 for an invalid id', async () => {
    expect((await errorOf(await setState(true, 'com.example.absent'), 404)).code).toBe('PLUGIN_NOT_FOUND');
    for (const id of ['Com.Example.Hello', 'hello', 'com.example.hello.bak-1.0.0', '..%2Fetc', 'com..example']) {
      expect((await errorOf(await setState(true, id), 400)).code).toBe('INVALID_ARGUMENT');
    }
  });
});

describe('DELETE /api/plugins/<id>', () => {
  const fixture = backendWithScratch({ keys });

  it('removes the folder, its snapshots and its record: 204', async () => {
    await jsonOf(await postPackage(fixture.backend, await packageFile(fixture.scratch, versionSpec('1.0.0', keys))), 201);
    await jsonOf(await postPackage(fixture.backend, await packageFile(fixture.scratch, versionSpec('1.1.0', keys))), 201);
    await jsonOf(await postPackage(fixture.backend, await packageFile(fixture.scratch, { keys, manifest: sampleManifest({ id: 'com.example.other' }) })), 201);
    expect(await pluginsFolder(fixture.backend)).toEqual(['com.example.hello', 'com.example.hello.bak-1.0.0', 'com.example.other']);

    const response = await fixture.backend.api(`/api/plugins/${ID}`, { method: 'DELETE' });
    expect(response.status).toBe(204);
    expect(await pluginsFolder(fixture.backend)).toEqual(['com.example.other']);
    expect(await jsonOf<{ id: string }[]>(await fixture.backend.api('/api/plugins/'), 200)).toMatchObject([{ id: 'com.example.other' }]);
    const records = JSON.parse(await readFile(join(fixture.backend.dataDirectory, 'backend', 'plugins.json'), 'utf8')) as {
      plugins: Record<string, unknown>;
    };
    expect(Object.keys(records.plugins)).toEqual(['com.example.other']);
    expect((await errorOf(await fixture.backend.api(`/api/plugins/${ID}`, { method: 'DELETE' }), 404)).code).toBe('PLUGIN_NOT_FOUND');
  });

  it('never follows a symbolic link out of the plugin folder', async () => {
    await jsonOf(await postPackage(fixture.backend, await packageFile(fixture.scratch, { keys })), 201);
    const outside = join(fixture.scratch, 'keep');
    await mkdir(outside);
    await writeFile(join(outside, 'precious.txt'), 'do not delete');
    await symlink(outside, join(fixture.backend.dataDirectory, 'plugins', ID, 'link'));
    expect((await fixture.backend.api(`/api/plugins/${ID}`, { method: 'DELETE' })).status).toBe(204);
    expect(await readFile(join(outside, 'precious.txt'), 'utf8')).toBe('do not delete');
  });

  it('treats a plugin folder that is a symbolic link as not installed', async () => {
    const elsewhere = join(fixture.scratch, 'elsewhere');
    await mkdir(elsewhere);
    await writeFile(join(elsewhere, 'manifest.json'), JSON.stringify(sampleManifest()));
    await symlink(elsewhere, join(fixture.backend.dataDirectory, 'plugins', ID));
    expect((await errorOf(await fixture.backend.api(`/api/plugins/${ID}`, { method: 'DELETE' }), 404)).code).toBe('PLUGIN_NOT_FOUND');
    expect(await readFile(join(elsewhere, 'manifest.json'), 'utf8')).toContain(ID);
    expect(await jsonOf(await fixture.backend.api('/api/plugins/'), 200)).toEqual([]);
  });

  it('404 PLUGIN_NOT_FOUND and 400 for an invalid id', async () => {
    expect((await errorOf(await fixture.backend.api('/api/plugins/com.example.absent', { method: 'DELETE' }), 404)).code).toBe('PLUGIN_NOT_FOUND');
    expect((await errorOf(await fixture.backend.api('/api/plugins/NOT_AN_ID', { method: 'DELETE' }), 400)).code).toBe('INVALID_ARGUMENT');
    expect((await errorOf(await fixture.backend.api('/api/plugins/com.example.hello.bak-1.0.0', { method: 'DELETE' }), 400)).code).toBe('INVALID_ARGUMENT');
  });
});
