import { pipeline } from 'node:stream';
import { createInflateRaw, inflateRawSync } from 'node:zlib';
import type { ArchiveFile } from './archive-file.js';
import type { EntryExtent } from './local-header.js';
import { invalidPackage, quoteEntry } from './package-errors.js';
import { beyondDeclaredSize, corruptData } from './verify-entry-data.js';
import { ZIP_METHOD } from './zip-format.js';

const INFLATE_CHUNK_BYTES = 64 * 1024;

/**
 * Streams the uncompressed data of one entry, read from the extent the layout check accepted:
 * exactly the `compressedSize` bytes from `dataStart`, so a stream can never see the bytes of
 * the next entry, whatever the data holds. Stored data passes through as it is; deflated data
 * goes through `zlib.createInflateRaw`. Nothing is read until the first chunk is asked for, and
 * returning early (as `verifyEntryData` does past a declared size) stops the read and the
 * inflater at once.
 *
 * A deflate stream must use every byte of its compressed size: inflaters stop at the stream's
 * end and ignore what follows, so bytes there would travel in the package, covered by no
 * signature (the signature covers uncompressed content).
 *
 * @throws PluginHostError `INVALID_PACKAGE` for bytes after the end of a deflate stream, or a
 *   method other than stored or deflate (the entry checks refuse those first). Read and inflate
 *   errors (a truncated or corrupt stream) are thrown as they are; `verifyEntryData` reports them.
 */
export async function* readEntryData(file: ArchiveFile, extent: EntryExtent): AsyncGenerator<Uint8Array> {
  const { record } = extent.entry;
  // An entry without data has nothing to inflate (a zero-byte deflate stream is not valid); the
  // entry checks allow it only with an uncompressed size and CRC-32 of zero.
  if (record.compressedSize === 0) return;
  requireKnownMethod(extent);
  const compressed = file.createReadStream(extent.dataStart, extent.dataStart + record.compressedSize);
  if (record.method === ZIP_METHOD.stored) {
    for await (const chunk of compressed as AsyncIterable<Buffer>) yield chunk;
    return;
  }
  // 64 KiB output chunks (zlib's default is 16 KiB): each chunk is one file write, and most
  // package files then take a single write.
  const inflater = createInflateRaw({ chunkSize: INFLATE_CHUNK_BYTES });
  // A read error destroys the inflater with that error, and destroying the inflater (leaving
  // the loop early) stops the read: either way the loop below sees it, so the callback has
  // nothing left to do.
  pipeline(compressed, inflater, () => undefined);
  for await (const chunk of inflater as AsyncIterable<Buffer>) yield chunk;
  // `bytesWritten` counts the compressed bytes the inflater consumed, up to the stream's end.
  refuseUnusedBytes(extent, inflater.bytesWritten);
}

/** Entries at most this large (declared, both compressed and not) are read whole by {@link readWholeEntryData}. */
export const WHOLE_ENTRY_MAX_BYTES = 1024 * 1024;

/** True when `extent`'s entry is small enough to be read whole (see {@link WHOLE_ENTRY_MAX_BYTES}). */
export function isSmallEntry(extent: EntryExtent): boolean {
  const { record } = extent.entry;
  return record.uncompressedSize <= WHOLE_ENTRY_MAX_BYTES && record.compressedSize <= WHOLE_ENTRY_MAX_BYTES;
}

/**
 * The uncompressed data of one small entry (see {@link isSmallEntry}) whole: its compressed bytes
 * in one read from the checked extent, inflated in one step on this thread. Most package files are
 * small, and for them the round trips of a stream (a read, an inflate on the thread pool, each
 * awaited) cost more than the work. The rules are those of {@link readEntryData}: inflating stops
 * at the declared size, bytes after the end of a deflate stream are refused; the caller verifies
 * size and CRC-32 with `verifyWholeEntry`.
 *
 * @throws PluginHostError `INVALID_PACKAGE`: beyond the declared size, corrupt data, bytes after
 *   the deflate stream, an unknown method.
 */
export async function readWholeEntryData(file: ArchiveFile, extent: EntryExtent): Promise<Uint8Array> {
  const { record, path } = extent.entry;
  if (record.compressedSize === 0) return new Uint8Array(0);
  requireKnownMethod(extent);
  const compressed = await file.read(extent.dataStart, record.compressedSize, `the data of entry ${quoteEntry(path)}`);
  if (record.method === ZIP_METHOD.stored) return compressed;
  const expected = { path, size: record.uncompressedSize, crc32: record.crc32 };
  let inflated: { buffer: Buffer; engine: { bytesWritten: number } };
  try {
    // The output may not pass the declared size: a lying size stops here, as it stops a stream.
    inflated = inflateRawSync(compressed, { info: true, maxOutputLength: Math.max(1, record.uncompressedSize) }) as unknown as typeof inflated;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw beyondDeclaredSize(expected);
    throw corruptData(expected, error);
  }
  refuseUnusedBytes(extent, inflated.engine.bytesWritten);
  return inflated.buffer;
}

function requireKnownMethod(extent: EntryExtent): void {
  const { record, path } = extent.entry;
  if (record.method !== ZIP_METHOD.stored && record.method !== ZIP_METHOD.deflated) {
    throw invalidPackage(`entry ${quoteEntry(path)} uses compression method ${record.method}`, { entry: path });
  }
}

/** Refuses compressed bytes the deflate stream did not use (`consumed` of the entry's compressed size). */
function refuseUnusedBytes(extent: EntryExtent, consumed: number): void {
  const { record, path } = extent.entry;
  const unused = record.compressedSize - consumed;
  if (unused > 0) {
    throw invalidPackage(`entry ${quoteEntry(path)} holds ${unused} bytes after the end of its deflate stream`, { entry: path });
  }
}
