import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startTestBackend } from '../../../support/local-backend.js';
import { sampleManifest, testKeys } from '../../../support/plugin-package.js';
import { backendWithScratch, developmentFolder, errorOf, jsonOf, packageFile, pluginsFolder, postPackage, temporaryLeftovers } from './plugins-support.js';

const keys = testKeys();
const library = sampleManifest({ id: 'com.example.library', name: 'Library', version: '1.4.0' });
const dependant = sampleManifest({ id: 'com.example.app', name: 'App', dependencies: { 'com.example.library': '^1.2.0' } });

describe('POST /api/plugins/install', () => {
  const fixture = backendWithScratch({ keys });

  const install = (json: unknown): Promise<Response> => fixture.backend.api('/api/plugins/install', { json });

  it('installs a development folder without a signature: 201 PluginInfo, files copied, source untouched', async () => {
    const source = await developmentFolder(join(fixture.scratch, 'hello'), sampleManifest(), {
      'dist/index.html': '<!doctype html><title>dev</title>',
      'dist/main.js': 'console.log("dev build");\n',
      'dist/assets/logo.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
    });
    const body = await jsonOf(await install({ sourceDir: source }), 201);
    expect(body).toEqual({
      id: 'com.example.hello',
      name: 'Hello',
      version: '1.0.0',
      status: 'installed',
      enabled: false,
      hasRollback: false,
      restartPending: true,
    });
    const installed = join(fixture.backend.dataDirectory, 'plugins', 'com.example.hello');
    expect(await readFile(join(installed, 'dist/assets/logo.svg'), 'utf8')).toContain('<svg');
    expect(await readFile(join(installed, 'manifest.json'), 'utf8')).toBe(await readFile(join(source, 'manifest.json'), 'utf8'));
    expect(await temporaryLeftovers(fixture.backend)).toEqual([]);
  });

  it('enables on request', async () => {
    const source = await developmentFolder(join(fixture.scratch, 'hello'), sampleManifest());
    expect(await jsonOf(await install({ sourceDir: source, enable: true }), 201)).toMatchObject({ enabled: true, status: 'installed' });
  });

  it('checks required dependencies: 422 DEPENDENCY_MISSING naming the id and range', async () => {
    const app = await developmentFolder(join(fixture.scratch, 'app'), dependant);
    const missing = await errorOf(await install({ sourceDir: app }), 422);
    expect(missing).toMatchObject({ code: 'DEPENDENCY_MISSING', dependency: 'com.example.library', range: '^1.2.0' });
    expect(missing.message).toContain('com.example.library ^1.2.0');

    await jsonOf(await install({ sourceDir: await developmentFolder(join(fixture.scratch, 'old-lib'), { ...library, version: '1.1.0' }) }), 201);
    const tooOld = await errorOf(await install({ sourceDir: app }), 422);
    expect(tooOld).toMatchObject({ code: 'DEPENDENCY_MISSING', dependency: 'com.example.library', range: '^1.2.0' });
    expect(tooOld.message).toContain('1.1.0');

    await jsonOf(await install({ sourceDir: await developmentFolder(join(fixture.scratch, 'lib'), library) }), 201);
    expect(await jsonOf(await install({ sourceDir: app }), 201)).toMatchObject({ id: 'com.example.app' });
  });

  it('does not check optional dependencies, and an upload checks none', async () => {
    const optional = sampleManifest({ id: 'com.example.opt', dependencies: { 'com.example.absent': { range: '^1.0.0', optional: true } } });
    await jsonOf(await install({ sourceDir: await developmentFolder(join(fixture.scratch, 'opt'), optional) }), 201);
    await jsonOf(await postPackage(fixture.backend, await packageFile(fixture.scratch, { keys, manifest: dependant })), 201);
  });

  it('validates the manifest against the copied files', async () => {
    const source = await developmentFolder(join(fixture.scratch, 'hello'), sampleManifest({ entry: { frontend: 'dist/missing.html' } }));
    const error = await errorOf(await install({ sourceDir: source }), 400);
    expect(error.code).toBe('INVALID_MANIFEST');
    expect(await pluginsFolder(fixture.backend)).toEqual([]);
    expect(await temporaryLeftovers(fixture.backend)).toEqual([]);
  });

  it('refuses a folder with a symbolic link inside, even one pointing inside', async () => {
    const outside = join(fixture.scratch, 'secret.txt');
    await writeFile(outside, 'secret');
    const source = await developmentFolder(join(fixture.scratch, 'hello'), sampleManifest());
    await symlink(outside, join(source, 'dist', 'secret.txt'));
    const error = await errorOf(await install({ sourceDir: source }), 400);
    expect(error).toMatchObject({ code: 'UNSAFE_ENTRY_PATH', entry: 'dist/secret.txt' });

    const linkedFolder = await developmentFolder(join(fixture.scratch, 'hello2'), sampleManifest());
    await symlink(join(linkedFolder, 'dist'), join(linkedFolder, 'more'));
    expect(await errorOf(await install({ sourceDir: linkedFolder }), 400)).toMatchObject({ code: 'UNSAFE_ENTRY_PATH', entry: 'more' });
    expect(await pluginsFolder(fixture.backend)).toEqual([]);
    expect(await temporaryLeftovers(fixture.backend)).toEqual([]);
  });

  it('applies the package path rules and reserved names', async () => {
    const windowsName = await developmentFolder(join(fixture.scratch, 'a'), sampleManifest(), {
      'dist/index.html': 'x',
      'dist/main.js': 'x',
      'dist/aux.txt': 'x',
    });
    expect(await errorOf(await install({ sourceDir: windowsName }), 400)).toMatchObject({ code: 'UNSAFE_ENTRY_PATH', entry: 'dist/aux.txt' });
    const settings = await developmentFolder(join(fixture.scratch, 'b'), sampleManifest(), {
      'dist/index.html': 'x',
      'dist/main.js': 'x',
      'settings.json': '{}',
    });
    expect(await errorOf(await install({ sourceDir: settings }), 400)).toMatchObject({ code: 'INVALID_PACKAGE', entry: 'settings.json' });
  });

  it('refuses a folder without manifest.json with "Invalid plugin package"', async () => {
    const source = join(fixture.scratch, 'empty');
    await mkdir(source);
    const error = await errorOf(await install({ sourceDir: source }), 400);
    expect(error.code).toBe('INVALID_PACKAGE');
    expect(error.message).toMatch(/^Invalid plugin package/);
  });

  it('refuses a relative, missing or non-folder sourceDir, and one inside the data folder', async () => {
    const file = join(fixture.scratch, 'file.txt');
    await writeFile(file, 'x');
    for (const sourceDir of [
      'relative/path',
      join(fixture.scratch, 'nope'),
      file,
      fixture.backend.dataDirectory,
      join(fixture.backend.dataDirectory, 'backend'),
      42,
    ]) {
      expect(await errorOf(await install({ sourceDir }), 400)).toMatchObject({ code: 'INVALID_ARGUMENT', field: 'sourceDir' });
    }
    expect(await errorOf(await install({ sourceDir: fixture.scratch, enable: 'yes' }), 400)).toMatchObject({ code: 'INVALID_ARGUMENT', field: 'enable' });
    expect((await errorOf(await install([1]), 400)).code).toBe('INVALID_ARGUMENT');
  });

  it('applies the package size limits to the folder', async () => {
    await fixture.backend.close();
    fixture.backend = await startTestBackend({ keys, packageLimits: { maxEntryUncompressedBytes: 1000 } });
    const source = await developmentFolder(join(fixture.scratch, 'big'), sampleManifest(), { 'dist/index.html': 'x'.repeat(5000), 'dist/main.js': 'x' });
    expect(await errorOf(await install({ sourceDir: source }), 413)).toMatchObject({ code: 'PACKAGE_TOO_LARGE', limit: 'maxEntryUncompressedBytes' });
    expect(await temporaryLeftovers(fixture.backend)).toEqual([]);
  });
});

describe('GET /api/plugins/', () => {
  const fixture = backendWithScratch({ keys });

  it('never lists snapshots, and skips folders without a valid manifest', async () => {
    await jsonOf(await postPackage(fixture.backend, await packageFile(fixture.scratch, { keys })), 201);
    const plugins = join(fixture.backend.dataDirectory, 'plugins');
    await mkdir(join(plugins, 'com.example.broken'));
    await mkdir(join(plugins, 'com.example.other'));
    await writeFile(join(plugins, 'com.example.other', 'manifest.json'), JSON.stringify(sampleManifest({ id: 'com.example.elsewhere' })));
    await mkdir(join(plugins, 'com.example.gone.bak-1.0.0'));
    await writeFile(join(plugins, 'com.example.gone.bak-1.0.0', 'manifest.json'), JSON.stringify(sampleManifest({ id: 'com.example.gone' })));
    await writeFile(join(plugins, 'stray.txt'), 'x');
    const list = await jsonOf<{ id: string }[]>(await fixture.backend.api('/api/plugins/'), 200);
    expect(list.map((plugin) => plugin.id)).toEqual(['com.example.hello']);
  });

  it('is strict about the trailing slash', async () => {
    expect((await errorOf(await fixture.backend.api('/api/plugins'), 404)).code).toBe('NOT_FOUND');
  });
});
