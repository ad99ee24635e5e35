import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openPluginPackage, type SignaturePolicy } from '@plughost/backend-kit';
import { utf8Encode } from '@plughost/host-sdk/core';
import { sampleManifest, testKeys, writePluginPackage, type PackageSpec } from '../../../support/plugin-package.js';

const keys = testKeys();
const otherRoot = testKeys(0x61, 0x52);

describe('openPluginPackage', () => {
  let folder: string;
  let work: string;

  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'open-package-'));
    work = join(folder, 'work');
    await import('node:fs/promises').then((fs) => fs.mkdir(work));
  });

  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  async function open(spec: PackageSpec, policy: SignaturePolicy = 'required', rootPublicKey = keys.rootPublicKey) {
    const path = join(folder, 'plugin.plugpkg');
    await writePluginPackage(path, spec);
    return openPluginPackage(path, { workDirectory: work, signaturePolicy: policy, trust: { rootPublicKey } });
  }

  async function refusal(spec: PackageSpec, policy: SignaturePolicy = 'required', rootPublicKey = keys.rootPublicKey) {
    const error = await open(spec, policy, rootPublicKey).then(
      () => {
        throw new Error('the package was accepted');
      },
      (caught: unknown) => caught as { code: string; message: string },
    );
    // Whatever the refusal, nothing is left in the work folder.
    expect(await readdir(work)).toEqual([]);
    return error;
  }

  it('opens a signed package: validated manifest, signer, extracted files', async () => {
    const opened = await open({ keys, certificateExtra: { developerId: 'dev-42' } });
    try {
      expect(opened.manifest.id).toBe('com.example.hello');
      expect(opened.signature).toMatchObject({ status: 'valid', signer: { developerId: 'dev-42' } });
      expect(opened.files.map((f) => f.path).sort()).toEqual(['dist/index.html', 'dist/main.js', 'manifest.json', 'signature.cert.json', 'signature.json']);
      expect(await readdir(join(opened.directory, 'dist'))).toEqual(['index.html', 'main.js']);
    } finally {
      await opened.dispose();
    }
    expect(await readdir(work)).toEqual([]);
  });

  it('refuses an unsigned package when the signature is required, and accepts it when only checked if present', async () => {
    expect(await refusal({})).toMatchObject({ code: 'SIGNATURE_INVALID', message: expect.stringContaining('not signed') });
    const opened = await open({}, 'if-present');
    expect(opened.signature).toEqual({ status: 'unsigned' });
    await opened.dispose();
  });

  it('does not look at the signature for a development install', async () => {
    const opened = await open({ keys, afterSigning: (e) => e.set('dist/main.js', utf8Encode('tampered')) }, 'ignore');
    expect(opened.signature).toEqual({ status: 'not-checked' });
    await opened.dispose();
  });

  describe('tampering with a signed package', () => {
    const cases: Array<[string, PackageSpec['afterSigning'], RegExp]> = [
      ['a changed file byte', (e) => e.set('dist/main.js', utf8Encode('console.log("hellO from a plugin");\n')), /hash/i],
      ['an added file', (e) => e.set('dist/extra.js', utf8Encode('steal()')), /hash/i],
      ['a removed file', (e) => e.delete('dist/main.js'), /hash/i],
      ['the manifest, even only its whitespace', (e) => e.set('manifest.json', utf8Encode(`${JSON.stringify(sampleManifest())}\n`)), /hash/i],
      [
        'a certificate field',
        (e) => {
          const cert = JSON.parse(Buffer.from(e.get('signature.cert.json')!).toString()) as Record<string, unknown>;
          e.set('signature.cert.json', utf8Encode(JSON.stringify({ ...cert, developerId: 'someone-else' })));
        },
        /root signature|certificate/i,
      ],
      [
        'the signer key id',
        (e) => {
          const sig = JSON.parse(Buffer.from(e.get('signature.json')!).toString()) as Record<string, unknown>;
          e.set('signature.json', utf8Encode(JSON.stringify({ ...sig, signerKeyId: '0123456789abcdef' })));
        },
        /signer key/i,
      ],
      ['only the signature file left', (e) => e.delete('signature.cert.json'), /signature\.cert\.json|certificate/i],
    ];

    it.each(cases)('refuses %s with SIGNATURE_INVALID and a reason', async (_name, afterSigning, reason) => {
      const error = await refusal({ keys, afterSigning });
      expect(error.code).toBe('SIGNATURE_INVALID');
      expect(error.message).toMatch(reason);
    });

    it('refuses a certificate from another root', async () => {
      const error = await refusal({ keys }, 'required', otherRoot.rootPublicKey);
      expect(error).toMatchObject({ code: 'SIGNATURE_INVALID', message: expect.stringMatching(/root/i) });
    });

    it('refuses an invalid signature also when signatures are only checked if present', async () => {
      const error = await refusal({ keys, afterSigning: (e) => e.set('dist/main.js', utf8Encode('x')) }, 'if-present');
      expect(error.code).toBe('SIGNATURE_INVALID');
    });
  });

  it('validates the manifest against the files in the archive', async () => {
    const error = await refusal({ keys, manifest: sampleManifest({ entry: { frontend: 'dist/missing.html' } }) });
    expect(error.code).toBe('INVALID_MANIFEST');
    expect(error.message).toContain('entry.frontend');
  });

  it('reports every manifest problem at once', async () => {
    const error = await refusal({ keys, manifest: sampleManifest({ id: 'Not An Id', version: 'v1', layers: ['l9'] }) });
    expect(error.code).toBe('INVALID_MANIFEST');
    for (const field of ['id', 'version', 'layers[0]']) expect(error.message).toContain(field);
  });

  it('refuses a package without a root manifest with "Invalid plugin package"', async () => {
    const error = await refusal({ keys, afterSigning: (e) => e.delete('manifest.json') });
    expect(error).toMatchObject({ code: 'INVALID_PACKAGE', message: 'Invalid plugin package' });
  });

  it('needs a trusted root unless signatures are ignored', async () => {
    const path = join(folder, 'p.plugpkg');
    await writePluginPackage(path, { keys });
    await expect(openPluginPackage(path, { workDirectory: work, signaturePolicy: 'required' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });
});
