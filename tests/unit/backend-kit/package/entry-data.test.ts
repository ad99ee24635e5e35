/**
 * The one path that reads entry data: the reader's own parser finds the extents, node:zlib
 * inflates, and each stream reads exactly its entry's compressed bytes.
 */
import { randomBytes } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode, isPluginHostError } from '@plughost/host-sdk/core';
import { ArchiveFile } from '../../../../backend-kit/src/package/archive-file.js';
import { readCentralDirectory } from '../../../../backend-kit/src/package/central-directory.js';
import { locateCentralDirectory } from '../../../../backend-kit/src/package/end-of-central-directory.js';
import { readEntryData } from '../../../../backend-kit/src/package/entry-data.js';
import { inspectEntries } from '../../../../backend-kit/src/package/inspect-entries.js';
import { DEFAULT_PACKAGE_LIMITS } from '../../../../backend-kit/src/package/limits.js';
import { readEntryExtent, type EntryExtent } from '../../../../backend-kit/src/package/local-header.js';
import { buildZip, type ZipEntry } from '../../../support/zip-builder.js';
import { createWorkspace, type Workspace } from './workspace.js';

let workspace: Workspace;
let file: ArchiveFile | undefined;
beforeEach(async () => {
  workspace = await createWorkspace();
});
afterEach(async () => {
  await file?.close();
  file = undefined;
  await workspace.remove();
});

/** Writes the archive and measures its entries exactly as extraction does. */
async function measure(entries: ZipEntry[]): Promise<{ archive: ArchiveFile; extents: Map<string, EntryExtent> }> {
  const path = await workspace.archive(buildZip(entries));
  const archive = await ArchiveFile.open(path, DEFAULT_PACKAGE_LIMITS);
  file = archive;
  const location = await locateCentralDirectory(archive, DEFAULT_PACKAGE_LIMITS);
  const inspected = inspectEntries(await readCentralDirectory(archive, location), DEFAULT_PACKAGE_LIMITS, { metadataFiles: [], pluginPackage: false });
  const extents = new Map<string, EntryExtent>();
  for (const entry of inspected) extents.set(entry.path, await readEntryExtent(archive, entry, location.offset));
  return { archive, extents };
}

/** The same extent with a smaller compressed size, as a forged central record would declare. */
function cutShort(extent: EntryExtent, bytes: number): EntryExtent {
  const record = { ...extent.entry.record, compressedSize: extent.entry.record.compressedSize - bytes };
  return { ...extent, entry: { ...extent.entry, record } };
}

async function collect(source: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of source) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Compares bytes without a deep equality walk over hundreds of kilobytes. */
function expectBytes(actual: Buffer, expected: Uint8Array): void {
  expect(actual.length).toBe(expected.length);
  expect(Buffer.compare(actual, expected)).toBe(0);
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected reading the entry data to fail');
}

describe('readEntryData', () => {
  const binary = randomBytes(300_000);
  const text = Buffer.from(Array.from({ length: 30_000 }, (_, index) => `row(${index});`).join('\n'));

  it('streams stored and deflated entries byte-exactly, over many chunks, whatever the local extra field', async () => {
    const { archive, extents } = await measure([
      { name: 'stored.bin', data: binary, method: 'store' },
      { name: 'deflated.js', data: text, method: 'deflate' },
      // An aligner's padding makes the local extra field much longer than the central one.
      {
        name: 'padded.bin',
        data: binary.subarray(0, 5000),
        method: 'store',
        local: { extraField: Buffer.concat([Buffer.from([0x35, 0xd9, 0xa0, 0x0f]), Buffer.alloc(4000)]) },
      },
      {
        name: 'padded.js',
        data: text.subarray(0, 9000),
        method: 'deflate',
        local: { extraField: Buffer.concat([Buffer.from([0x35, 0xd9, 0xfc, 0x0f]), Buffer.alloc(4092)]) },
      },
    ]);
    expectBytes(await collect(readEntryData(archive, extents.get('stored.bin')!)), binary);
    expectBytes(await collect(readEntryData(archive, extents.get('deflated.js')!)), text);
    expectBytes(await collect(readEntryData(archive, extents.get('padded.bin')!)), binary.subarray(0, 5000));
    expectBytes(await collect(readEntryData(archive, extents.get('padded.js')!)), text.subarray(0, 9000));
  });

  it('yields nothing for an entry without data, without reading', async () => {
    const { archive, extents } = await measure([{ name: 'empty.txt', data: '' }]);
    expect(await collect(readEntryData(archive, extents.get('empty.txt')!))).toHaveLength(0);
  });

  it('reads a stored entry only up to its extent’s end, never the next entry’s bytes', async () => {
    const { archive, extents } = await measure([
      { name: 'first.bin', data: binary, method: 'store' },
      { name: 'second.bin', data: binary, method: 'store' },
    ]);
    const data = await collect(readEntryData(archive, cutShort(extents.get('first.bin')!, 1000)));
    expectBytes(data, binary.subarray(0, binary.length - 1000));
  });

  it('fails a deflate stream cut at its extent’s end, although the bytes after it would complete the stream', async () => {
    const { archive, extents } = await measure([{ name: 'deflated.js', data: text, method: 'deflate' }]);
    const extent = extents.get('deflated.js')!;
    const error = await failure(collect(readEntryData(archive, cutShort(extent, 4))));
    expect((error as NodeJS.ErrnoException).code).toBe('Z_BUF_ERROR');
    // The whole stream does inflate: only the cut made it fail.
    expectBytes(await collect(readEntryData(archive, extent)), text);
  });

  it('refuses bytes after the end of a deflate stream, inside the compressed size (INVALID_PACKAGE)', async () => {
    const hidden = Buffer.concat([deflateRawSync(text), Buffer.alloc(1000, 0x41)]);
    const { archive, extents } = await measure([{ name: 'deflated.js', data: text, compressedData: hidden }]);
    const error = await failure(collect(readEntryData(archive, extents.get('deflated.js')!)));
    expect(isPluginHostError(error, ErrorCode.INVALID_PACKAGE)).toBe(true);
    expect((error as Error).message).toMatch(/"deflated.js" holds 1000 bytes after the end of its deflate stream/);
  });

  it('passes a corrupt deflate stream’s own error on (verifyEntryData reports it as INVALID_PACKAGE)', async () => {
    const { archive, extents } = await measure([{ name: 'deflated.js', data: text, compressedData: Buffer.alloc(64, 0xff) }]);
    const error = await failure(collect(readEntryData(archive, extents.get('deflated.js')!)));
    expect((error as NodeJS.ErrnoException).code).toBe('Z_DATA_ERROR');
  });
});
