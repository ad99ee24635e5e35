import type { ArchiveFile } from './archive-file.js';
import { crc32 } from './crc32.js';
import { findExtraField, findUnicodePath, resolveZip64Values } from './extra-fields.js';
import type { InspectedEntry } from './inspect-entries.js';
import { invalidPackage, quoteEntry } from './package-errors.js';
import { UINT32_SATURATED, ZIP_EXTRA_FIELD, ZIP_FLAG, ZIP_RECORD_LENGTH, ZIP_SIGNATURE } from './zip-format.js';

/** The bytes one entry occupies in the archive: local header, data and data descriptor. */
export interface EntryExtent {
  entry: InspectedEntry;
  /** Offset of the local header. */
  start: number;
  /** Offset of the first data byte. */
  dataStart: number;
  /** Offset just past the data descriptor (or the data, without one). */
  end: number;
}

interface LocalHeader {
  flags: number;
  method: number;
  crc32: number;
  compressedSize: number;
  uncompressedSize: number;
  nameBytes: Buffer;
  extra: Buffer;
  hasZip64: boolean;
  dataStart: number;
}

async function readHeader(file: ArchiveFile, entry: InspectedEntry, directoryOffset: number): Promise<LocalHeader> {
  const offset = entry.record.localHeaderOffset;
  const what = `the local header of entry ${quoteEntry(entry.path)}`;
  // Local headers live before the central directory; one pointing into it (or beyond) is forged.
  if (offset + ZIP_RECORD_LENGTH.localFileHeader > directoryOffset) {
    throw invalidPackage(`${what} points into the central directory`, { entry: entry.path });
  }
  // One read usually covers the whole header: local name and extra field mostly have the central
  // lengths. A longer local part is read separately below.
  const guess = Math.min(ZIP_RECORD_LENGTH.localFileHeader + entry.record.nameBytes.length + entry.record.extraField.length, directoryOffset - offset);
  const first = await file.read(offset, guess, what);
  const fixed = first.subarray(0, ZIP_RECORD_LENGTH.localFileHeader);
  if (fixed.readUInt32LE(0) !== ZIP_SIGNATURE.localFileHeader) {
    throw invalidPackage(`${what} is missing`, { entry: entry.path });
  }
  const nameLength = fixed.readUInt16LE(26);
  const extraLength = fixed.readUInt16LE(28);
  const dataStart = offset + ZIP_RECORD_LENGTH.localFileHeader + nameLength + extraLength;
  if (dataStart > directoryOffset) {
    throw invalidPackage(`${what} runs into the central directory`, { entry: entry.path });
  }
  const variable =
    first.length >= ZIP_RECORD_LENGTH.localFileHeader + nameLength + extraLength
      ? first.subarray(ZIP_RECORD_LENGTH.localFileHeader, ZIP_RECORD_LENGTH.localFileHeader + nameLength + extraLength)
      : await file.read(offset + ZIP_RECORD_LENGTH.localFileHeader, nameLength + extraLength, what);
  const extra = variable.subarray(nameLength);
  const narrowUncompressed = fixed.readUInt32LE(22);
  const narrowCompressed = fixed.readUInt32LE(18);
  const [uncompressedSize, compressedSize] = resolveZip64Values(
    extra,
    [
      { name: 'uncompressed size', value: narrowUncompressed, saturated: narrowUncompressed === UINT32_SATURATED },
      { name: 'compressed size', value: narrowCompressed, saturated: narrowCompressed === UINT32_SATURATED },
    ],
    entry.path,
  ) as [number, number];
  return {
    flags: fixed.readUInt16LE(6),
    method: fixed.readUInt16LE(8),
    crc32: fixed.readUInt32LE(14),
    compressedSize,
    uncompressedSize,
    nameBytes: variable.subarray(0, nameLength),
    extra,
    hasZip64: findExtraField(extra, ZIP_EXTRA_FIELD.zip64, entry.path) !== undefined,
    dataStart,
  };
}

/**
 * Compares the local header with the central directory. Extractors that stream an archive from
 * the front read only local headers, so a disagreement lets a package show one name, size or
 * method to the signature check and another to such a tool.
 */
function compareWithCentral(header: LocalHeader, entry: InspectedEntry): void {
  const { record, path } = entry;
  const mismatch = (what: string): never => {
    const reason = `the local header of entry ${quoteEntry(path)} disagrees with the central directory (${what})`;
    throw invalidPackage(reason, { entry: path });
  };
  if (Buffer.compare(header.nameBytes, record.nameBytes) !== 0) {
    mismatch(`it names ${quoteEntry(header.nameBytes.toString('utf8'))}`);
  }
  // Extractors that read only local headers take the name from a Unicode Path field found here.
  const unicodePath = findUnicodePath(header.extra, path);
  if (
    unicodePath?.version === 1 &&
    unicodePath.headerNameCrc32 === crc32(header.nameBytes) &&
    Buffer.compare(Buffer.from(unicodePath.name), Buffer.from(path, 'utf8')) !== 0
  ) {
    mismatch('its Unicode Path extra field names another path');
  }
  if (header.method !== record.method) mismatch('compression method');
  if (header.flags !== record.flags) mismatch('flags');
  if (record.flags & ZIP_FLAG.dataDescriptor) {
    // Streaming writers put zeros here and the real values in the descriptor; some fill them in.
    if (header.crc32 !== 0 && header.crc32 !== record.crc32) mismatch('CRC-32');
    if (header.compressedSize !== 0 && header.compressedSize !== record.compressedSize) mismatch('compressed size');
    if (header.uncompressedSize !== 0 && header.uncompressedSize !== record.uncompressedSize) {
      mismatch('uncompressed size');
    }
  } else {
    if (header.crc32 !== record.crc32) mismatch('CRC-32');
    if (header.compressedSize !== record.compressedSize) mismatch('compressed size');
    if (header.uncompressedSize !== record.uncompressedSize) mismatch('uncompressed size');
  }
}

/**
 * Reads the data descriptor that follows the data of a streamed entry and returns its length. It
 * comes with or without its optional signature, and with 4- or 8-byte sizes (8 with zip64); the
 * form whose values equal the central directory's is taken, and none matching is refused.
 */
async function readDataDescriptor(file: ArchiveFile, entry: InspectedEntry, offset: number, directoryOffset: number, zip64First: boolean): Promise<number> {
  const { record, path } = entry;
  const available = Math.min(24, directoryOffset - offset);
  const what = `the data descriptor of entry ${quoteEntry(path)}`;
  const bytes = available > 0 ? await file.read(offset, available, what) : Buffer.alloc(0);
  const sizeWidths = zip64First ? [8, 4] : [4, 8];
  for (const signed of [true, false]) {
    for (const width of sizeWidths) {
      const length = (signed ? 4 : 0) + 4 + 2 * width;
      if (length > bytes.length) continue;
      if (signed && bytes.readUInt32LE(0) !== ZIP_SIGNATURE.dataDescriptor) continue;
      const base = signed ? 4 : 0;
      const read = (at: number): number => (width === 8 ? Number(bytes.readBigUInt64LE(at)) : bytes.readUInt32LE(at));
      if (bytes.readUInt32LE(base) === record.crc32 && read(base + 4) === record.compressedSize && read(base + 4 + width) === record.uncompressedSize) {
        return length;
      }
    }
  }
  throw invalidPackage(`${what} is missing or disagrees with the central directory`, { entry: path });
}

/**
 * Reads and checks the local header of `entry` and measures the bytes the entry occupies, so that
 * the layout check can refuse overlapping entries before anything is extracted.
 *
 * @throws PluginHostError `INVALID_PACKAGE` when the header is missing, disagrees with the
 *   central directory, or the entry runs into the central directory.
 */
export async function readEntryExtent(file: ArchiveFile, entry: InspectedEntry, directoryOffset: number): Promise<EntryExtent> {
  const header = await readHeader(file, entry, directoryOffset);
  compareWithCentral(header, entry);
  const dataEnd = header.dataStart + entry.record.compressedSize;
  if (dataEnd > directoryOffset) {
    throw invalidPackage(`the data of entry ${quoteEntry(entry.path)} runs into the central directory`, {
      entry: entry.path,
    });
  }
  const descriptorLength = entry.record.flags & ZIP_FLAG.dataDescriptor ? await readDataDescriptor(file, entry, dataEnd, directoryOffset, header.hasZip64) : 0;
  return {
    entry,
    start: entry.record.localHeaderOffset,
    dataStart: header.dataStart,
    end: dataEnd + descriptorLength,
  };
}
