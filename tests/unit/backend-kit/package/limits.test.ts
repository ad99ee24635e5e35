import { deflateRawSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '@plughost/host-sdk/core';
import { DEFAULT_PACKAGE_LIMITS, extractPackage, resolvePackageLimits } from '@plughost/backend-kit';
import { buildZip, type ZipEntry } from '../../../support/zip-builder.js';
import { createWorkspace, expectRefusal, type Workspace } from './workspace.js';

const MiB = 1024 * 1024;
const manifest: ZipEntry = { name: 'manifest.json', data: '{}' };

describe('resolvePackageLimits', () => {
  it('has the documented defaults', () => {
    expect(DEFAULT_PACKAGE_LIMITS).toEqual({
      maxPackageBytes: 256 * MiB,
      maxEntries: 10_000,
      maxEntryNameBytes: 512,
      maxTotalUncompressedBytes: 1024 * MiB,
      maxEntryUncompressedBytes: 512 * MiB,
      maxCompressionRatio: 100,
      compressionRatioThresholdBytes: MiB,
      maxCentralDirectoryBytes: 16 * MiB,
      maxMetadataFileBytes: MiB,
    });
    expect(Object.isFrozen(DEFAULT_PACKAGE_LIMITS)).toBe(true);
  });

  it('overrides only the limits given', () => {
    expect(resolvePackageLimits({ maxEntries: 5, maxCompressionRatio: 12.5 })).toEqual({
      ...DEFAULT_PACKAGE_LIMITS,
      maxEntries: 5,
      maxCompressionRatio: 12.5,
    });
  });

  it.each([
    ['maxEntries', 0],
    ['maxEntries', -1],
    ['maxEntries', 1.5],
    ['maxPackageBytes', Number.NaN],
    ['maxTotalUncompressedBytes', Number.POSITIVE_INFINITY],
    ['maxCompressionRatio', 0],
    ['maxCompressionRatio', Number.POSITIVE_INFINITY],
    ['maxEntryNameBytes', '512'],
  ])('refuses %s = %s with INVALID_ARGUMENT', (limit, value) => {
    expect(() => resolvePackageLimits({ [limit]: value })).toThrow(expect.objectContaining({ code: ErrorCode.INVALID_ARGUMENT, details: { limit, value } }));
  });
});

describe('extractPackage enforces its limits (PACKAGE_TOO_LARGE)', () => {
  let workspace: Workspace;
  beforeEach(async () => {
    workspace = await createWorkspace();
  });
  afterEach(async () => {
    await workspace.remove();
  });

  it('refuses a package file over maxPackageBytes before reading it', async () => {
    const archive = buildZip([manifest, { name: 'a.bin', data: Buffer.alloc(4096, 1), method: 'store' }]);
    const error = await expectRefusal(workspace, archive, ErrorCode.PACKAGE_TOO_LARGE, {
      limits: { maxPackageBytes: 4000 },
      message: /maxPackageBytes/,
    });
    expect(error.details).toMatchObject({ limit: 'maxPackageBytes', maximum: 4000, actual: archive.length });
  });

  it('refuses the 256 MiB default plus one byte without reading the content', async () => {
    // A sparse file: 256 MiB + 1 of nothing, so the check must be on the size alone.
    const { open } = await import('node:fs/promises');
    const path = await workspace.archive(Buffer.alloc(0), 'huge.plugpkg');
    const handle = await open(path, 'r+');
    await handle.truncate(256 * MiB + 1);
    await handle.close();
    await expect(extractPackage(path, { workDirectory: workspace.work })).rejects.toMatchObject({
      code: ErrorCode.PACKAGE_TOO_LARGE,
      details: { limit: 'maxPackageBytes' },
    });
  });

  it('refuses more entries than maxEntries', async () => {
    const entries = [manifest, ...Array.from({ length: 4 }, (_, index) => ({ name: `f${index}.txt`, data: 'x' }))];
    await expectRefusal(workspace, buildZip(entries), ErrorCode.PACKAGE_TOO_LARGE, {
      limits: { maxEntries: 3 },
      message: /maxEntries \(3\)/,
    });
  });

  it('refuses a huge declared entry count before parsing the directory', async () => {
    const archive = buildZip([manifest], { declaredEntryCount: 65_535 });
    const error = await expectRefusal(workspace, archive, ErrorCode.PACKAGE_TOO_LARGE, { message: /maxEntries/ });
    expect(error.details).toMatchObject({ actual: 65_535 });
  });

  it('refuses a zip64 entry count of 2^40', async () => {
    await expectRefusal(workspace, buildZip([manifest], { zip64EndRecord: { declaredEntryCount: 2n ** 40n } }), ErrorCode.PACKAGE_TOO_LARGE, {
      message: /maxEntries/,
    });
  });

  it('refuses a name longer than maxEntryNameBytes, counting bytes not characters', async () => {
    const long = buildZip([manifest, { name: 'a'.repeat(513), data: 'x' }]);
    await expectRefusal(workspace, long, ErrorCode.PACKAGE_TOO_LARGE, { message: /maxEntryNameBytes \(512\)/ });
    // 200 characters, 400 bytes in UTF-8.
    const wide = buildZip([manifest, { name: '\u00e9'.repeat(200), data: 'x' }]);
    await expectRefusal(workspace, wide, ErrorCode.PACKAGE_TOO_LARGE, {
      limits: { maxEntryNameBytes: 300 },
      message: /maxEntryNameBytes/,
    });
  });

  it('refuses an entry over maxEntryUncompressedBytes', async () => {
    const error = await expectRefusal(
      workspace,
      buildZip([manifest, { name: 'big.bin', data: Buffer.alloc(2048, 3), method: 'store' }]),
      ErrorCode.PACKAGE_TOO_LARGE,
      { limits: { maxEntryUncompressedBytes: 2047 }, message: /maxEntryUncompressedBytes/ },
    );
    expect(error.details).toMatchObject({ entry: 'big.bin', actual: 2048 });
  });

  it('refuses a total over maxTotalUncompressedBytes', async () => {
    const files = Array.from({ length: 5 }, (_, index) => ({ name: `f${index}.bin`, data: Buffer.alloc(1000) }));
    const entries = [manifest, ...files];
    await expectRefusal(workspace, buildZip(entries), ErrorCode.PACKAGE_TOO_LARGE, {
      limits: { maxTotalUncompressedBytes: 4500 },
      message: /maxTotalUncompressedBytes/,
    });
  });

  it('refuses a central directory over maxCentralDirectoryBytes', async () => {
    await expectRefusal(workspace, buildZip([manifest, { name: 'a.txt', data: 'x' }]), ErrorCode.PACKAGE_TOO_LARGE, {
      limits: { maxCentralDirectoryBytes: 64 },
      message: /maxCentralDirectoryBytes/,
    });
  });

  it('refuses a manifest or signature file over maxMetadataFileBytes, which would be held in memory', async () => {
    const big = `{"pad":"${'x'.repeat(MiB)}"}`;
    await expectRefusal(workspace, buildZip([{ name: 'manifest.json', data: big }]), ErrorCode.PACKAGE_TOO_LARGE, {
      message: /maxMetadataFileBytes/,
    });
    await expectRefusal(workspace, buildZip([manifest, { name: 'signature.json', data: '{}'.padEnd(2000) }]), ErrorCode.PACKAGE_TOO_LARGE, {
      limits: { maxMetadataFileBytes: 1000 },
      message: /maxMetadataFileBytes/,
    });
  });

  describe('zip bombs', () => {
    // 50 MB of zeros deflate to about 50 KB: a ratio near 1000:1.
    const zeros = Buffer.alloc(50 * 1000 * 1000);
    const bomb = deflateRawSync(zeros);

    it('refuses 50 MB of deflated zeros by compression ratio, with the default limits', async () => {
      const error = await expectRefusal(workspace, buildZip([manifest, { name: 'bomb.bin', data: zeros, compressedData: bomb }]), ErrorCode.PACKAGE_TOO_LARGE, {
        message: /maxCompressionRatio \(100\)/,
      });
      expect(error.details).toMatchObject({ limit: 'maxCompressionRatio', entry: 'bomb.bin' });
    });

    it('refuses it by entry size when the ratio is allowed but the size is lowered', async () => {
      await expectRefusal(workspace, buildZip([manifest, { name: 'bomb.bin', data: zeros, compressedData: bomb }]), ErrorCode.PACKAGE_TOO_LARGE, {
        limits: { maxCompressionRatio: 10_000, maxEntryUncompressedBytes: 10 * MiB },
        message: /maxEntryUncompressedBytes/,
      });
    });

    it('refuses many small bombs by total size', async () => {
      const small = Buffer.alloc(5 * MiB);
      const smallBomb = deflateRawSync(small);
      const bombs = Array.from({ length: 4 }, (_, index) => ({ name: `b${index}`, data: small, compressedData: smallBomb }));
      const entries = [manifest, ...bombs];
      await expectRefusal(workspace, buildZip(entries), ErrorCode.PACKAGE_TOO_LARGE, {
        limits: { maxCompressionRatio: 10_000, maxTotalUncompressedBytes: 16 * MiB },
        message: /maxTotalUncompressedBytes/,
      });
    });

    it('stops a bomb that lies about its size at the first byte past the declared size', async () => {
      await expectRefusal(
        workspace,
        buildZip([manifest, { name: 'liar.bin', data: zeros, compressedData: bomb, declared: { uncompressedSize: 1000 } }]),
        ErrorCode.INVALID_PACKAGE,
        { message: /inflates beyond its declared size of 1000 bytes/, beforeWriting: false },
      );
    });

    it('exempts small entries from the ratio limit', async () => {
      const path = await workspace.archive(buildZip([manifest, { name: 'zeros.bin', data: Buffer.alloc(MiB) }]));
      const extracted = await extractPackage(path, { workDirectory: workspace.work });
      await extracted.dispose();
    });
  });
});
