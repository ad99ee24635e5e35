import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { utf8Encode } from '@plughost/host-sdk/core';
import { DEFAULT_FILES, sampleManifest, testKeys } from '../../../support/plugin-package.js';
import { backendWithScratch, errorOf, jsonOf, packageFile, pluginsFolder, postPackage, temporaryLeftovers } from './plugins-support.js';

const keys = testKeys();

describe('POST /api/plugins/upload', () => {
  const fixture = backendWithScratch({ keys });

  it('installs a signed package: 201 PluginInfo with permissions, listed as installed, upload deleted', async () => {
    const path = await packageFile(fixture.scratch, { keys, manifest: sampleManifest({ permissions: ['ui:toast', 'shell:execute'] }) });
    const body = await jsonOf(await postPackage(fixture.backend, path), 201);
    expect(body).toEqual({
      id: 'com.example.hello',
      name: 'Hello',
      version: '1.0.0',
      status: 'installed',
      enabled: false,
      hasRollback: false,
      // Installed since the last read, and from a file (no `store`).
      restartPending: true,
      permissions: [
        { id: 'shell:execute', risk: 'danger' },
        { id: 'ui:toast', risk: 'normal' },
      ],
    });
    expect(await jsonOf(await fixture.backend.api('/api/plugins/'), 200)).toEqual([
      { id: 'com.example.hello', name: 'Hello', version: '1.0.0', status: 'installed', enabled: false, hasRollback: false, restartPending: true },
    ]);
    expect(await pluginsFolder(fixture.backend)).toEqual(['com.example.hello']);
    expect(await temporaryLeftovers(fixture.backend)).toEqual([]);
  });

  it('lists plugins sorted by id', async () => {
    for (const id of ['org.zeta.tool', 'com.alpha.tool', 'net.mid.tool']) {
      await jsonOf(await postPackage(fixture.backend, await packageFile(fixture.scratch, { keys, manifest: sampleManifest({ id }) })), 201);
    }
    const list = await jsonOf<{ id: string }[]>(await fixture.backend.api('/api/plugins/'), 200);
    expect(list.map((plugin) => plugin.id)).toEqual(['com.alpha.tool', 'net.mid.tool', 'org.zeta.tool']);
  });

  it('enables at once with ?enable=true (status stays installed until a restart)', async () => {
    const body = await jsonOf(await postPackage(fixture.backend, await packageFile(fixture.scratch, { keys }), { query: '?enable=true' }), 201);
    expect(body).toMatchObject({ enabled: true, status: 'installed' });
    await jsonOf(await fixture.backend.api('/api/launcher/restart', { method: 'POST' }), 202);
    expect(await jsonOf(await fixture.backend.api('/api/plugins/'), 200)).toMatchObject([{ status: 'active', enabled: true }]);
  });

  it('refuses an unsigned package with 400 SIGNATURE_INVALID and installs nothing', async () => {
    const error = await errorOf(await postPackage(fixture.backend, await packageFile(fixture.scratch, {})), 400);
    expect(error).toMatchObject({ code: 'SIGNATURE_INVALID', check: 'missing' });
    expect(await pluginsFolder(fixture.backend)).toEqual([]);
    expect(await temporaryLeftovers(fixture.backend)).toEqual([]);
  });

  it('refuses a package changed after signing with SIGNATURE_INVALID', async () => {
    const path = await packageFile(fixture.scratch, {
      keys,
      afterSigning: (entries) => entries.set('dist/main.js', utf8Encode('stealCookies();\n')),
    });
    const error = await errorOf(await postPackage(fixture.backend, path), 400);
    expect(error).toMatchObject({ code: 'SIGNATURE_INVALID', check: 'signed-hash' });
    expect(await pluginsFolder(fixture.backend)).toEqual([]);
  });

  it('refuses a package certified by another root with SIGNATURE_INVALID', async () => {
    const error = await errorOf(await postPackage(fixture.backend, await packageFile(fixture.scratch, { keys: testKeys(0x61, 0x52) })), 400);
    expect(error).toMatchObject({ code: 'SIGNATURE_INVALID', check: 'issuer' });
  });

  it('refuses a bad manifest with INVALID_MANIFEST and every problem', async () => {
    const manifest = sampleManifest({ version: 'one', permissions: ['no:such'] });
    const error = await errorOf(await postPackage(fixture.backend, await packageFile(fixture.scratch, { keys, manifest })), 400);
    expect(error.code).toBe('INVALID_MANIFEST');
    const problems = error.problems as { path: string }[];
    expect(problems.map((problem) => problem.path)).toEqual(expect.arrayContaining(['version', 'permissions[0]']));
  });

  it('refuses a file that is not a zip with INVALID_PACKAGE', async () => {
    const form = new FormData();
    form.append('plugin', new Blob(['not a zip at all']), 'plugin.plugpkg');
    const error = await errorOf(await fixture.backend.api('/api/plugins/upload', { method: 'POST', body: form }), 400);
    expect(error.code).toBe('INVALID_PACKAGE');
    expect(await temporaryLeftovers(fixture.backend)).toEqual([]);
  });

  it('asks for the multipart field "plugin"', async () => {
    const path = await packageFile(fixture.scratch, { keys });
    expect(await errorOf(await postPackage(fixture.backend, path, { field: 'file' }), 400)).toMatchObject({
      code: 'INVALID_ARGUMENT',
      field: 'plugin',
    });
    expect(await errorOf(await fixture.backend.api('/api/plugins/upload', { json: {} }), 400)).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(await temporaryLeftovers(fixture.backend)).toEqual([]);
  });

  it('refuses an empty file and more than one file', async () => {
    const empty = new FormData();
    empty.append('plugin', new Blob([]), 'empty.plugpkg');
    expect((await errorOf(await fixture.backend.api('/api/plugins/upload', { method: 'POST', body: empty }), 400)).code).toBe('INVALID_PACKAGE');
    const bytes = await readFile(await packageFile(fixture.scratch, { keys }));
    const two = new FormData();
    two.append('plugin', new Blob([bytes]), 'a.plugpkg');
    two.append('plugin', new Blob([bytes]), 'b.plugpkg');
    expect(await errorOf(await fixture.backend.api('/api/plugins/upload', { method: 'POST', body: two }), 400)).toMatchObject({
      code: 'INVALID_ARGUMENT',
      field: 'plugin',
    });
    expect(await pluginsFolder(fixture.backend)).toEqual([]);
    expect(await temporaryLeftovers(fixture.backend)).toEqual([]);
  });

  it('refuses an unknown enable value', async () => {
    const error = await errorOf(await postPackage(fixture.backend, await packageFile(fixture.scratch, { keys }), { query: '?enable=yes' }), 400);
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENT', field: 'enable' });
    expect(await temporaryLeftovers(fixture.backend)).toEqual([]);
  });

  it('needs the token', async () => {
    const form = new FormData();
    form.append('plugin', new Blob(['x']), 'p.plugpkg');
    const response = await fixture.backend.api('/api/plugins/upload', { method: 'POST', body: form, token: null });
    expect((await errorOf(response, 401)).code).toBe('UNAUTHORIZED');
  });
});

describe('POST /api/plugins/upload with a small package limit', () => {
  const fixture = backendWithScratch({ keys, packageLimits: { maxPackageBytes: 2048 } });

  it('answers 413 PACKAGE_TOO_LARGE while receiving and keeps nothing', async () => {
    const path = await packageFile(fixture.scratch, { keys, files: { ...DEFAULT_FILES, 'dist/noise.bin': new Uint8Array(randomBytes(8000)) } });
    const error = await errorOf(await postPackage(fixture.backend, path), 413);
    expect(error).toMatchObject({ code: 'PACKAGE_TOO_LARGE', limit: 'maxPackageBytes', maximum: 2048 });
    expect(await pluginsFolder(fixture.backend)).toEqual([]);
    expect(await temporaryLeftovers(fixture.backend)).toEqual([]);
  });

  it('refuses a declared body far over the limit before reading it', async () => {
    const response = await fixture.backend.api('/api/plugins/upload', {
      method: 'POST',
      body: new Uint8Array(200_000),
      headers: { 'Content-Type': 'multipart/form-data; boundary=x' },
    });
    expect((await errorOf(response, 413)).code).toBe('PACKAGE_TOO_LARGE');
  });
});

describe('POST /api/plugins/inspect', () => {
  const fixture = backendWithScratch({ keys });

  it('describes a signed package and installs nothing', async () => {
    const manifest = sampleManifest({ permissions: ['config:read', 'network:fetch'], render: 'inline' });
    const path = await packageFile(fixture.scratch, { keys, manifest, certificateExtra: { developerId: 'dev-7' } });
    const body = await jsonOf(await postPackage(fixture.backend, path, { route: 'inspect' }), 200);
    expect(body).toMatchObject({
      manifest: { id: 'com.example.hello', version: '1.0.0', render: 'inline' },
      permissions: [
        { id: 'render:inline', risk: 'danger' },
        { id: 'network:fetch', risk: 'warning' },
        { id: 'config:read', risk: 'normal' },
      ],
      signer: { developerId: 'dev-7', keyId: expect.stringMatching(/^[0-9a-f]{16}$/) },
      signatureStatus: 'valid',
      installedVersion: null,
    });
    expect(body).not.toHaveProperty('signatureProblem');
    expect(await pluginsFolder(fixture.backend)).toEqual([]);
    expect(await temporaryLeftovers(fixture.backend)).toEqual([]);
  });

  it('reports an unsigned package and the installed version', async () => {
    await jsonOf(await postPackage(fixture.backend, await packageFile(fixture.scratch, { keys })), 201);
    const body = await jsonOf(await postPackage(fixture.backend, await packageFile(fixture.scratch, {}), { route: 'inspect' }), 200);
    expect(body).toMatchObject({ signatureStatus: 'unsigned', signer: null, installedVersion: '1.0.0' });
  });

  it('reports an invalid signature with its reason instead of refusing', async () => {
    const path = await packageFile(fixture.scratch, {
      keys,
      afterSigning: (entries) => entries.set('dist/main.js', utf8Encode('changed();\n')),
    });
    const body = await jsonOf(await postPackage(fixture.backend, path, { route: 'inspect' }), 200);
    expect(body).toMatchObject({
      signatureStatus: 'invalid',
      signer: null,
      signatureProblem: { check: 'signed-hash', reason: expect.stringContaining('do not match') },
    });
  });

  it('still refuses a package whose manifest is invalid', async () => {
    const path = await packageFile(fixture.scratch, { keys, manifest: sampleManifest({ id: 'Not An Id' }) });
    expect((await errorOf(await postPackage(fixture.backend, path, { route: 'inspect' }), 400)).code).toBe('INVALID_MANIFEST');
  });
});
