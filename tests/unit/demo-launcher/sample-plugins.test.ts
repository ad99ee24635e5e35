/**
 * The demo launcher's sample plugins: built with demo-launcher/scripts/build-sample-plugins.mjs,
 * each package must open under the manual-upload policy (signature required, demo root trusted)
 * and install into a real local backend.
 */
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPluginPackage } from '@plughost/backend-kit';
import type { PluginManifest } from '@plughost/host-sdk/core';
import { buildSamplePlugins, type BuildSamplePluginsResult } from '../../../demo-launcher/scripts/build-sample-plugins.mjs';
import { startTestBackend } from '../../support/local-backend.js';

const sourceDir = fileURLToPath(new URL('../../../demo-launcher/sample-plugins', import.meta.url));
const rootKeyFile = new URL('../../../demo-launcher/keys/DEVELOPMENT-ONLY-root-key.json', import.meta.url);
const LIBRARY = 'com.plughost.samples.library';
const CONSUMER = 'com.plughost.samples.consumer';
const WASM = 'com.plughost.samples.wasm';

/** Every package path the manifest names (entry, menu items, settings pages, overlay). */
function declaredFiles(manifest: PluginManifest): string[] {
  const { entry, contributes } = manifest;
  return [
    entry?.frontend,
    entry?.backend,
    entry?.theme,
    ...(contributes?.menuItems ?? []).map((item) => item.path),
    ...(contributes?.settingsPages ?? []).map((page) => page.path),
    contributes?.overlay?.file,
  ].filter((path): path is string => path !== undefined);
}

describe('demo launcher sample plugins', () => {
  let workDir: string;
  let outDir: string;
  let built: BuildSamplePluginsResult;
  let rootPublicKey: string;

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'sample-plugins-'));
    outDir = join(workDir, 'out');
    rootPublicKey = (JSON.parse(await readFile(rootKeyFile, 'utf8')) as { publicKey: string }).publicKey;
    built = await buildSamplePlugins({ sourceDir, outDir });
  });

  afterAll(async () => {
    await rm(workDir, { recursive: true, force: true });
  });

  it('writes one package per sample folder and an index.json naming each of them', async () => {
    const folders = (await readdir(sourceDir, { withFileTypes: true })).filter((entry) => entry.isDirectory() && entry.name !== '_shared');
    const index = JSON.parse(await readFile(join(outDir, 'index.json'), 'utf8')) as Record<string, unknown>[];

    expect(index).toHaveLength(folders.length);
    expect(index).toEqual(built.plugins.map(({ id, name, version, file }) => ({ id, name, version, file })));
    for (const entry of index) {
      expect(Object.keys(entry).sort()).toEqual(['file', 'id', 'name', 'version']);
      expect(entry.id).toMatch(/^com\.plughost\.samples\.[a-z-]+$/);
      expect(entry.version).toBe('1.0.0');
      expect(entry.file).toBe(`${String(entry.id)}-1.0.0.plugpkg`);
    }
    expect((await readdir(outDir)).sort()).toEqual([...index.map((entry) => String(entry.file)), 'index.json'].sort());
    expect(built.rootPublicKey).toBe(rootPublicKey);
  });

  it('lists the library before the consumer that depends on it', () => {
    const ids = built.plugins.map((plugin) => plugin.id);
    expect(ids).toContain(LIBRARY);
    expect(ids.indexOf(LIBRARY)).toBeLessThan(ids.indexOf(CONSUMER));
  });

  it('opens every package with a valid demo signature, a valid manifest and its declared files', async () => {
    for (const plugin of built.plugins) {
      const opened = await openPluginPackage(plugin.path, {
        workDirectory: workDir,
        signaturePolicy: 'required',
        trust: { rootPublicKey },
      });
      try {
        expect(opened.signature).toMatchObject({ status: 'valid', signer: { developerId: 'plughost-samples' } });
        expect(opened.warnings).toEqual([]);
        expect(opened.manifest).toMatchObject({
          id: plugin.id,
          name: plugin.name,
          version: '1.0.0',
          minLauncherVersion: '0.1.0',
          author: 'PlugHost samples',
        });
        const paths = new Set(opened.files.map((file) => file.path));
        const declared = declaredFiles(opened.manifest);
        expect(declared, plugin.id).toContain(opened.manifest.entry?.frontend);
        for (const path of declared) {
          expect(paths.has(path), `${plugin.id}: ${path}`).toBe(true);
          expect((await stat(join(opened.directory, ...path.split('/')))).isFile()).toBe(true);
        }
      } finally {
        await opened.dispose();
      }
    }
  });

  it('keeps the contracts the launcher relies on', async () => {
    const source = (folder: string, file: string) => readFile(join(sourceDir, folder, file), 'utf8');
    expect(await source('hello', 'main.js')).toContain("registerMethod('file-drop'");
    expect(await source('hello', 'index.html')).toContain('id="dropped"');
    expect(await source('consumer', 'index.html')).toContain('id="playtime"');
    const consumer = built.plugins.find((plugin) => plugin.id === CONSUMER)!;
    const opened = await openPluginPackage(consumer.path, { workDirectory: workDir, signaturePolicy: 'ignore' });
    try {
      expect(opened.manifest.dependencies).toEqual({ [LIBRARY]: '^1.0.0' });
    } finally {
      await opened.dispose();
    }
  });

  it('rewrites the output folder from scratch with the same bytes', async () => {
    const before = await Promise.all(built.plugins.map((plugin) => readFile(plugin.path)));
    await writeFile(join(outDir, 'stale.plugpkg'), 'left over');
    const again = await buildSamplePlugins({ sourceDir, outDir });
    expect(await readdir(outDir)).not.toContain('stale.plugpkg');
    const after = await Promise.all(again.plugins.map((plugin) => readFile(plugin.path)));
    expect(after).toEqual(before);
  });

  it('installs every package into a local backend trusting the demo root', async () => {
    const backend = await startTestBackend({ rootPublicKey });
    try {
      for (const plugin of built.plugins) {
        const installed = await backend.backend.plugins.installPackage(plugin.path, { enable: true });
        expect(installed).toMatchObject({ id: plugin.id, version: '1.0.0' });
      }
      const response = await backend.api('/api/plugins/');
      expect(response.status).toBe(200);
      const listed = (await response.json()) as { id: string; version: string }[];
      expect(listed.map((plugin) => plugin.id).sort()).toEqual(built.plugins.map((plugin) => plugin.id).sort());

      // The WASM sample's module runs in the backend: on_load answers 42, add adds.
      const invoke = async (body: unknown) => {
        const answer = await backend.api(`/api/plugins/wasm/${WASM}/invoke`, { json: body });
        return { status: answer.status, body: (await answer.json()) as unknown };
      };
      expect(await invoke({})).toEqual({ status: 200, body: { ok: true, result: 42 } });
      expect(await invoke({ exportName: 'add', args: [2, 3] })).toEqual({ status: 200, body: { ok: true, result: 5 } });
    } finally {
      await backend.close();
    }
  });
});
