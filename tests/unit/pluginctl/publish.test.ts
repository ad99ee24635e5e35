import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPluginPackage } from '@plughost/backend-kit';
import { bytesToBase64 } from '@plughost/host-sdk/core';
import { PUBLISHER_KEY, startRegistryProcess, type RegistryProcess } from '../../support/registry-process.js';
import { sampleManifest, testKeys, writePluginPackage } from '../../support/plugin-package.js';
import { runPluginctl } from './login-support.js';

const keys = testKeys(0x61, 0x62);
const SIGN_KEY = bytesToBase64(keys.developerSeed);

describe('pluginctl publish against a real registry', () => {
  let registry: RegistryProcess;
  let folder: string;

  beforeAll(async () => {
    registry = await startRegistryProcess({ rootPrivateKey: bytesToBase64(keys.rootSeed) });
    folder = await mkdtemp(join(tmpdir(), 'pluginctl-publish-'));
  });

  afterAll(async () => {
    await registry?.close();
    await rm(folder, { recursive: true, force: true });
  });

  async function mine(): Promise<{ id: string; versions: { version: string; status: string; changelog: string }[] }[]> {
    const response = await fetch(`${registry.url}/plugins/mine`, { headers: { Authorization: `Bearer ${PUBLISHER_KEY}` } });
    return ((await response.json()) as { items: { id: string; versions: { version: string; status: string; changelog: string }[] }[] }).items;
  }

  it('publishes in CI mode: certifies the key, creates the record, signs, uploads, saves release/<id>-<version>.signed.plugpkg', async () => {
    const project = await mkdtemp(join(folder, 'ci-'));
    const unsigned = join(project, 'hello.plugpkg');
    // Layers l3 only, no UI: the store publishes it at once.
    await writePluginPackage(unsigned, {
      manifest: sampleManifest({ id: 'com.example.worker', name: 'Worker', layers: ['l3'], permissions: ['config:write'], entry: { backend: 'dist/main.js' } }),
      files: { 'dist/main.js': 'export default {};' },
    });
    const env = { PLUGINCTL_API_KEY: PUBLISHER_KEY, PLUGINCTL_SIGN_KEY: SIGN_KEY, XDG_CONFIG_HOME: join(project, 'config') };

    const first = await runPluginctl(['publish', '--package', unsigned, '--api', registry.url, '--changelog', 'First release'], { env, cwd: project });
    expect(first.stderr).not.toContain('Error');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('Published com.example.worker 1.0.0: published');
    expect(first.stdout).toContain(`Store: ${registry.url}/plugins/`);
    expect(first.stderr).toContain('certified now');
    expect(first.stderr).toContain('Created the plugin record com.example.worker');

    // The saved package is what the launcher accepts: signed by the developer key, certified by the store's root.
    expect(await readdir(join(project, 'release'))).toEqual(['com.example.worker-1.0.0.signed.plugpkg']);
    const opened = await openPluginPackage(join(project, 'release', 'com.example.worker-1.0.0.signed.plugpkg'), {
      workDirectory: project,
      signaturePolicy: 'required',
      trust: { rootPublicKey: keys.rootPublicKey },
    });
    expect(opened.signature.status).toBe('valid');
    await opened.dispose();
    expect(await mine()).toMatchObject([{ id: 'com.example.worker', versions: [{ version: '1.0.0', status: 'published', changelog: 'First release' }] }]);

    // A second version reuses the certified key and the existing record; UI makes it wait for review.
    const next = join(project, 'next.plugpkg');
    await writePluginPackage(next, { manifest: sampleManifest({ id: 'com.example.worker', name: 'Worker', version: '1.1.0' }) });
    const second = await runPluginctl(['publish', '--package', next, '--api', registry.url], { env, cwd: project });
    expect(second.code).toBe(0);
    expect(second.stderr).toContain('reusing its certificate');
    expect(second.stderr).not.toContain('Created the plugin record');
    expect(second.stdout).toContain('Published com.example.worker 1.1.0: pending_review');
  });

  it('packs the project folder with pack when no --package is given', async () => {
    const project = await mkdtemp(join(folder, 'project-'));
    await mkdir(join(project, 'dist'));
    await writeFile(join(project, 'dist', 'main.js'), 'export default {};\n');
    const manifest = sampleManifest({
      id: 'com.example.packed',
      name: 'Packed',
      layers: ['l3'],
      permissions: ['config:write'],
      entry: { backend: 'dist/main.js' },
    });
    await writeFile(join(project, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const env = { PLUGINCTL_API_KEY: PUBLISHER_KEY, PLUGINCTL_SIGN_KEY: SIGN_KEY, XDG_CONFIG_HOME: join(folder, 'packed-config') };
    const result = await runPluginctl(['publish', '--api', registry.url, '--yes'], { env, cwd: project });
    expect(result.stderr).not.toContain('Error');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Published com.example.packed 1.0.0: published');
    expect((await readdir(join(project, 'release'))).sort()).toEqual(['com.example.packed-1.0.0.plugpkg', 'com.example.packed-1.0.0.signed.plugpkg']);
  });

  it('refuses a changelog over 4,000 characters before uploading anything', async () => {
    const project = await mkdtemp(join(folder, 'long-'));
    const path = join(project, 'long.plugpkg');
    await writePluginPackage(path, { manifest: sampleManifest({ id: 'com.example.long' }) });
    const env = { PLUGINCTL_API_KEY: PUBLISHER_KEY, PLUGINCTL_SIGN_KEY: SIGN_KEY, XDG_CONFIG_HOME: join(project, 'config') };
    const result = await runPluginctl(['publish', '--package', path, '--api', registry.url, '--changelog', 'é'.repeat(4001)], { env, cwd: project });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('CHANGELOG_TOO_LONG: The changelog has 4001 characters; the store takes at most 4000.');
    expect((await mine()).map((plugin) => plugin.id)).not.toContain('com.example.long');
    await expect(readdir(join(project, 'release'))).rejects.toMatchObject({ code: 'ENOENT' });
    // Exactly 4,000 is fine.
    const ok = await runPluginctl(['publish', '--package', path, '--api', registry.url, '--changelog', 'é'.repeat(4000)], { env, cwd: project });
    expect(ok.code).toBe(0);
  });

  it('never prompts without a terminal: a session user without --yes is told to pass it', async () => {
    const project = await mkdtemp(join(folder, 'tty-'));
    const path = join(project, 'p.plugpkg');
    await writePluginPackage(path, { manifest: sampleManifest({ id: 'com.example.prompt' }) });
    const result = await runPluginctl(['publish', '--package', path, '--api', registry.url], {
      env: { PLUGINCTL_SIGN_KEY: SIGN_KEY, XDG_CONFIG_HOME: join(project, 'config') },
      cwd: project,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('CONFIRMATION_REQUIRED');
    expect(result.stderr).toContain('Pass --yes');
  });

  it('says what to do without a signing key, and lists every option with --help', async () => {
    const result = await runPluginctl(['publish', '--package', 'x.plugpkg', '--api', registry.url], { env: { PLUGINCTL_API_KEY: PUBLISHER_KEY } });
    expect(result.stderr).toContain('SIGN_KEY_REQUIRED: No signing key: set PLUGINCTL_SIGN_KEY');
    const help = (await runPluginctl(['publish', '--help'])).stdout;
    for (const option of ['--key', '--slug', '--changelog', '--api', '--org-id', '--package', '--skip-build', '--yes']) expect(help).toContain(option);
  });
});
