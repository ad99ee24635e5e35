import { pipeline } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import type { ArchiveFile } from './archive-file.js';
import type { EntryExtent } from './local-header.js';
import { invalidPackage, quoteEntry } from './package-errors.js';
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
  const { record, path } = extent.entry;
  // An entry without data has nothing to inflate (a zero-byte deflate stream is not valid); the
  // entry checks allow it only with an uncompressed size and CRC-32 of zero.
  if (record.compressedSize === 0) return;
  if (record.method !== ZIP_METHOD.stored && record.method !== ZIP_METHOD.deflated) {
    throw invalidPackage(`entry ${quoteEntry(path)} uses compression method ${record.method}`, { entry: path });
  }
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
  const unused = record.compressedSize - inflater.bytesWritten;
  if (unused > 0) {
    throw invalidPackage(`entry ${quoteEntry(path)} holds ${unused} bytes after the end of its deflate stream`, { entry: path });
  }
}
