// Small entries are read, inflated and verified whole; large ones (over 1 MiB declared) stream.
// Both paths refuse the same lies, and many entries written at once come back in central
// directory order with the right bytes and hashes.
import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '@plughost/host-sdk/core';
import { extractPackage } from '@plughost/backend-kit';
import { crc32 } from '../../../support/crc32.js';
import { buildZip, type ZipEntry } from '../../../support/zip-builder.js';
import { createWorkspace, expectRefusal, type Workspace } from './workspace.js';

const manifest: ZipEntry = { name: 'manifest.json', data: '{"id":"com.example.demo"}' };
const withManifest = (...entries: ZipEntry[]): Buffer => buildZip([manifest, ...entries]);
/** Text over the 1 MiB whole-entry bound that deflates like source code (within the compression-ratio limit). */
const LARGE_TEXT = Buffer.from(randomBytes(800 * 1024).toString('base64'));

let workspace: Workspace;
beforeEach(async () => {
  workspace = await createWorkspace();
});
afterEach(async () => {
  await workspace.remove();
});

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

describe('extractPackage, small and large entries', () => {
  it('extracts a large deflated entry, a large stored one and 200 small ones, listed in archive order', async () => {
    const binary = randomBytes(1024 * 1024 + 5);
    const small = Array.from({ length: 200 }, (_, index) => ({ name: `dist/chunks/c${index}.js`, data: `export default ${index};\n`.repeat(index + 1) }));
    const entries: ZipEntry[] = [manifest, { name: 'dist/big.js', data: LARGE_TEXT }, ...small, { name: 'dist/big.bin', data: binary, method: 'store' }];
    const path = await workspace.archive(buildZip(entries));
    const extracted = await extractPackage(path, { workDirectory: workspace.work });
    try {
      expect(extracted.files.map((file) => file.path)).toEqual(entries.map((entry) => entry.name));
      expect((await readFile(join(extracted.directory, 'dist/big.js'))).equals(LARGE_TEXT)).toBe(true);
      expect((await readFile(join(extracted.directory, 'dist/big.bin'))).equals(binary)).toBe(true);
      const byPath = new Map(extracted.files.map((file) => [file.path, file]));
      expect(byPath.get('dist/big.bin')).toEqual({ path: 'dist/big.bin', sha256: sha256(binary), size: binary.length });
      for (const entry of small) {
        const bytes = Buffer.from(entry.data);
        expect(byPath.get(entry.name)).toEqual({ path: entry.name, sha256: sha256(bytes), size: bytes.length });
        expect(await readFile(join(extracted.directory, entry.name), 'utf8')).toBe(entry.data);
      }
    } finally {
      await extracted.dispose();
    }
  });

  it('refuses a large entry that inflates beyond its declared size, while it streams', async () => {
    const declared = 1024 * 1024 + 100;
    const error = await expectRefusal(
      workspace,
      withManifest({ name: 'big.js', data: LARGE_TEXT, declared: { uncompressedSize: declared } }),
      ErrorCode.INVALID_PACKAGE,
      {
        message: new RegExp(`inflates beyond its declared size of ${declared} bytes`),
        beforeWriting: false,
      },
    );
    expect(error.details).toMatchObject({ entry: 'big.js', declaredSize: declared });
  });

  it('refuses a CRC-32 mismatch and bytes after the deflate stream in a large entry', async () => {
    await expectRefusal(
      workspace,
      withManifest({ name: 'big.js', data: LARGE_TEXT, declared: { crc32: (crc32(LARGE_TEXT) ^ 1) >>> 0 } }),
      ErrorCode.INVALID_PACKAGE,
      { message: /CRC-32/, beforeWriting: false },
    );
    const hidden = Buffer.concat([deflateRawSync(LARGE_TEXT), Buffer.from('not covered')]);
    await expectRefusal(workspace, withManifest({ name: 'big.js', data: LARGE_TEXT, compressedData: hidden }), ErrorCode.INVALID_PACKAGE, {
      message: /11 bytes after the end of its deflate stream/,
      beforeWriting: false,
    });
  });

  it('stops at the first failing entry among many and leaves nothing behind', async () => {
    const good = Array.from({ length: 50 }, (_, index) => ({ name: `dist/ok${index}.txt`, data: `fine ${index}` }));
    const bad: ZipEntry = { name: 'dist/bad.txt', data: 'broken', declared: { crc32: 1 } };
    await expectRefusal(workspace, withManifest(...good.slice(0, 25), bad, ...good.slice(25)), ErrorCode.INVALID_PACKAGE, {
      message: /CRC-32 of entry "dist\/bad.txt"/,
      beforeWriting: false,
    });
  });
});
