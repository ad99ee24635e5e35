/**
 * Attack: a signed package whose manifest (or signature file) repeats a key. The signature covers
 * the raw bytes, so it holds, but JSON.parse keeps the last value while another parser may keep
 * the first: two readers would see two different manifests under one signature.
 */
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openPluginPackage, type SignaturePolicy } from '@plughost/backend-kit';
import { utf8Decode, utf8Encode } from '@plughost/host-sdk/core';
import { sampleManifest, testKeys, writePluginPackage, type PackageSpec } from '../../../support/plugin-package.js';

const keys = testKeys();

/** The manifest text with `permissions` written twice: harmless first, dangerous last. */
const TWO_PERMISSION_LISTS = JSON.stringify(sampleManifest()).replace('"permissions":', '"permissions":["shell:execute"],"permissions":');

/** Writes `key` a second time (with its own value again) right after the opening brace. */
function repeatFirst(bytes: Uint8Array, key: string): Uint8Array {
  const text = utf8Decode(bytes);
  const value = (JSON.parse(text) as Record<string, unknown>)[key];
  return utf8Encode(text.replace('{', `{${JSON.stringify(key)}:${JSON.stringify(value)},`));
}

describe('openPluginPackage refuses JSON with a repeated key (INVALID_MANIFEST)', () => {
  let folder: string;
  let work: string;

  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'duplicate-keys-'));
    work = join(folder, 'work');
    await mkdir(work);
  });

  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  async function refusal(spec: PackageSpec, policy: SignaturePolicy = 'required'): Promise<{ code: string; message: string }> {
    const path = join(folder, 'plugin.plugpkg');
    await writePluginPackage(path, spec);
    const error = await openPluginPackage(path, { workDirectory: work, signaturePolicy: policy, trust: { rootPublicKey: keys.rootPublicKey } }).then(
      async (opened) => {
        await opened.dispose();
        throw new Error('the package was accepted');
      },
      (caught: unknown) => caught as { code: string; message: string },
    );
    expect(await readdir(work)).toEqual([]);
    return error;
  }

  it('refuses a signed manifest that lists its permissions twice', async () => {
    const error = await refusal({ manifest: TWO_PERMISSION_LISTS, keys });
    expect(error.code).toBe('INVALID_MANIFEST');
    expect(error.message).toContain('"permissions"');
  });

  it('refuses a repeated key deep inside, also when it is spelled with an escape', async () => {
    const manifest = JSON.stringify(sampleManifest()).replace('"entry":{', '"entry":{"\\u0066rontend":"dist/other.html",');
    const error = await refusal({ manifest, keys, files: { 'dist/index.html': 'x', 'dist/other.html': 'y', 'dist/main.js': 'z' } });
    expect(error.code).toBe('INVALID_MANIFEST');
    expect(error.message).toMatch(/entry/);
  });

  it('refuses it whatever the signature policy (development install too)', async () => {
    expect((await refusal({ manifest: TWO_PERMISSION_LISTS }, 'ignore')).code).toBe('INVALID_MANIFEST');
  });

  it.each(['signature.json', 'signature.cert.json'])('refuses a %s that repeats a key', async (file) => {
    const error = await refusal({
      keys,
      afterSigning: (entries) => entries.set(file, repeatFirst(entries.get(file)!, file === 'signature.json' ? 'signedHash' : 'keyId')),
    });
    expect(error).toMatchObject({ code: 'INVALID_MANIFEST', message: expect.stringContaining(file) });
  });

  it('refuses a repeated key in signature.json when the signature is only checked if present', async () => {
    const error = await refusal(
      { keys, afterSigning: (entries) => entries.set('signature.json', repeatFirst(entries.get('signature.json')!, 'alg')) },
      'if-present',
    );
    expect(error.code).toBe('INVALID_MANIFEST');
  });
});
