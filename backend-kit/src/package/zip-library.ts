import type { Readable } from 'node:stream';
import unzipper from 'unzipper';
import type { ArchiveFile } from './archive-file.js';
import type { CentralRecord } from './central-directory.js';
import type { CentralDirectoryLocation } from './end-of-central-directory.js';
import type { EntryExtent } from './local-header.js';
import { invalidPackage } from './package-errors.js';

/**
 * Opens the uncompressed data of one entry, as the zip library streams it. Only for entries with
 * compressed data: an empty one has nothing to stream and would fail with `FILE_ENDED`.
 */
export type EntryDataOpener = () => Readable;

// The typings of unzipper 0.12 omit the options argument of `Open.custom` and type its results
// loosely; these are the parts this module relies on.
interface LibrarySource {
  size(): Promise<number>;
  stream(offset: number, length?: number): Readable;
}
interface LibraryFile {
  signature: number;
  flags: number;
  compressionMethod: number;
  crc32: number;
  compressedSize: number;
  uncompressedSize: number;
  offsetToLocalFileHeader: number;
  pathBuffer: Buffer;
  stream(): Readable;
}
interface LibraryDirectory {
  numberOfRecords: number;
  offsetToStartOfCentralDirectory: number;
  files: LibraryFile[];
}
type OpenCustom = (source: LibrarySource, options: { tailSize: number; padding: number }) => Promise<LibraryDirectory>;

// unzipper reads each entry as one range: 30 + central name and extra lengths + `padding` +
// compressed size. A local extra field may legitimately be longer than the central one (aligners
// pad it), up to 65 535 bytes, so the padding covers the largest possible difference; the source
// below then cuts the range at the entry's real end.
const LOCAL_EXTRA_PADDING = 0xffff;

const openCustom = unzipper.Open.custom as unknown as OpenCustom;

function sameRecord(mine: CentralRecord, theirs: LibraryFile): boolean {
  return (
    theirs.flags === mine.flags &&
    theirs.compressionMethod === mine.method &&
    theirs.crc32 === mine.crc32 &&
    theirs.compressedSize === mine.compressedSize &&
    theirs.uncompressedSize === mine.uncompressedSize &&
    theirs.offsetToLocalFileHeader === mine.localHeaderOffset &&
    Buffer.compare(theirs.pathBuffer, mine.nameBytes) === 0
  );
}

/**
 * Opens the central directory with unzipper, which later streams and inflates the entries, and
 * checks that it parsed exactly what the reader's own parser found. Two parsers that disagree on
 * an archive are how signed-but-different content slips through, so any difference is refused.
 *
 * unzipper reads through `file` (one handle, streams closed by `file.close()`), and is pointed
 * at the end record already located, so it cannot pick another one. A read that starts at a local
 * header ends where that entry's data ends (from `extents`): an entry's stream can never see the
 * bytes of the next entry, whatever unzipper computes.
 *
 * @returns One data opener per record, in central directory order.
 * @throws PluginHostError `INVALID_PACKAGE` when unzipper fails or disagrees.
 */
export async function openWithZipLibrary(
  file: ArchiveFile,
  location: CentralDirectoryLocation,
  records: readonly CentralRecord[],
  extents: readonly EntryExtent[],
): Promise<EntryDataOpener[]> {
  const dataEnds = new Map(extents.map((extent) => [extent.start, extent.dataStart + extent.entry.record.compressedSize]));
  const source: LibrarySource = {
    size: () => Promise.resolve(file.size),
    stream: (offset, length) => {
      const requested = length ? offset + length : file.size;
      return file.createReadStream(offset, Math.min(requested, dataEnds.get(offset) ?? requested));
    },
  };
  let directory: LibraryDirectory;
  try {
    directory = await openCustom(source, {
      tailSize: file.size - location.endRecordOffset,
      padding: LOCAL_EXTRA_PADDING,
    });
  } catch (error) {
    throw invalidPackage('the central directory is corrupt', undefined, error);
  }
  if (
    directory.numberOfRecords !== location.entryCount ||
    directory.offsetToStartOfCentralDirectory !== location.offset ||
    directory.files.length !== records.length
  ) {
    throw invalidPackage('the zip library and the package reader locate different central directories');
  }
  return records.map((record, index) => {
    const libraryFile = directory.files[index];
    if (!libraryFile || !sameRecord(record, libraryFile)) {
      throw invalidPackage(`the zip library and the package reader parse entry ${index} differently`, {
        entry: record.displayName,
      });
    }
    return () => {
      const stream = libraryFile.stream();
      // unzipper reports inflate and read errors with a bare `emit('error')`, which neither ends
      // nor marks the stream: an error emitted before the consumer listens would be lost and the
      // consumer would wait forever. Destroying records it (`stream.errored`), so reading later
      // still fails, and this listener keeps a late error from an abandoned stream from crashing
      // the process.
      stream.on('error', (error: Error) => stream.destroy(error));
      return stream;
    };
  });
}
