// Speed of the install path's checks: reading a package and verifying its signature.
// Run with `npm run bench`; these are measurements, never pass/fail tests.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, bench, describe } from 'vitest';
import { extractPackage, openPluginPackage } from '@plughost/backend-kit';
import { canonicalJson, sha256Hex, verifyPackageSignature, type SignedPackageContents } from '@plughost/host-sdk/core';
import { testKeys, writePluginPackage } from '../support/plugin-package.js';

const folder = mkdtempSync(join(tmpdir(), 'bench-package-'));
const work = join(folder, 'work');
mkdirSync(work);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const keys = testKeys();
const manyFiles: Record<string, string> = { 'dist/index.html': '<!doctype html>' };
for (let i = 0; i < 500; i += 1) manyFiles[`dist/assets/chunk-${i}.js`] = `export const value${i} = ${i};\n`.repeat(20);
const bigAsset = new Uint8Array(8 * 1024 * 1024).map((_, i) => (i * 2654435761) >>> 24);

const smallPath = join(folder, 'small.plugpkg');
const manyPath = join(folder, 'many.plugpkg');
const bigPath = join(folder, 'big.plugpkg');
await writePluginPackage(smallPath, { keys });
await writePluginPackage(manyPath, { keys, files: manyFiles });
await writePluginPackage(bigPath, { keys, files: { 'dist/index.html': '<!doctype html>', 'dist/video.bin': bigAsset } });

const opened = await extractPackage(manyPath, { workDirectory: work });
const contents: SignedPackageContents = opened;
await opened.dispose();

describe('reading packages', () => {
  bench('open + verify a small signed package (3 files)', async () => {
    const p = await openPluginPackage(smallPath, { workDirectory: work, signaturePolicy: 'required', trust: { rootPublicKey: keys.rootPublicKey } });
    await p.dispose();
  });
  bench(
    'open + verify a package with 500 files',
    async () => {
      const p = await openPluginPackage(manyPath, { workDirectory: work, signaturePolicy: 'required', trust: { rootPublicKey: keys.rootPublicKey } });
      await p.dispose();
    },
    { iterations: 5 },
  );
  bench(
    'open + verify a package with an 8 MiB asset',
    async () => {
      const p = await openPluginPackage(bigPath, { workDirectory: work, signaturePolicy: 'required', trust: { rootPublicKey: keys.rootPublicKey } });
      await p.dispose();
    },
    { iterations: 5 },
  );
});

describe('signature checks (no I/O)', () => {
  bench('verifyPackageSignature, 500 files', () => {
    verifyPackageSignature(contents, { rootPublicKey: keys.rootPublicKey });
  });
  bench('canonicalJson of a 500-file list', () => {
    canonicalJson({ manifest: 'x'.repeat(64), files: contents.files.map((f) => ({ path: f.path, sha256: f.sha256 })) });
  });
  bench('sha256Hex of 1 MiB in the isomorphic core', () => {
    sha256Hex(bigAsset.subarray(0, 1024 * 1024));
  });
});
