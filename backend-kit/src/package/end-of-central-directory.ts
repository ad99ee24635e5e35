import type { ArchiveFile } from './archive-file.js';
import type { PackageLimits } from './limits.js';
import { invalidPackage, tooLarge } from './package-errors.js';
import { UINT16_SATURATED, UINT32_SATURATED, ZIP_RECORD_LENGTH, ZIP_SIGNATURE } from './zip-format.js';

/** Where the central directory is, read from the end records before anything else is parsed. */
export interface CentralDirectoryLocation {
  /** Number of entries the archive declares. */
  entryCount: number;
  /** Offset of the first central directory header. */
  offset: number;
  /** Length of the central directory in bytes. */
  size: number;
  /** Offset of the end of central directory record. */
  endRecordOffset: number;
  /** True when a zip64 end record supplied the values. */
  zip64: boolean;
}

const MAX_COMMENT_LENGTH = 0xffff;

function toSafeNumber(value: bigint, what: string): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw invalidPackage(`${what} is impossibly large`);
  return Number(value);
}

/**
 * Finds the end of central directory record. It is the last record of the file and its comment
 * must run exactly to the end: trailing bytes, or a signature hidden in a comment, would let two
 * readers find different directories.
 */
async function findEndRecord(file: ArchiveFile): Promise<{ offset: number; record: Buffer }> {
  if (file.size < ZIP_RECORD_LENGTH.endOfCentralDirectory) {
    throw invalidPackage('not a zip archive (too short)');
  }
  const tailLength = Math.min(file.size, ZIP_RECORD_LENGTH.endOfCentralDirectory + MAX_COMMENT_LENGTH);
  const tailStart = file.size - tailLength;
  const tail = await file.read(tailStart, tailLength, 'the end of the archive');
  for (let index = tail.length - ZIP_RECORD_LENGTH.endOfCentralDirectory; index >= 0; index--) {
    if (tail.readUInt32LE(index) !== ZIP_SIGNATURE.endOfCentralDirectory) continue;
    const commentLength = tail.readUInt16LE(index + 20);
    if (index + ZIP_RECORD_LENGTH.endOfCentralDirectory + commentLength !== tail.length) continue;
    return {
      offset: tailStart + index,
      record: tail.subarray(index, index + ZIP_RECORD_LENGTH.endOfCentralDirectory),
    };
  }
  throw invalidPackage('not a zip archive (no end of central directory record at the end of the file)');
}

interface DirectoryFields {
  disk: number;
  directoryDisk: number;
  entriesOnDisk: number;
  entryCount: number;
  size: number;
  offset: number;
}

/** Reads the zip64 end record when its locator sits right before the end record. */
async function readZip64Fields(file: ArchiveFile, endRecordOffset: number): Promise<{ fields: DirectoryFields; recordOffset: number } | null> {
  const locatorOffset = endRecordOffset - ZIP_RECORD_LENGTH.zip64EndOfCentralDirectoryLocator;
  if (locatorOffset < 0) return null;
  const locator = await file.read(locatorOffset, ZIP_RECORD_LENGTH.zip64EndOfCentralDirectoryLocator, 'the zip64 end locator');
  if (locator.readUInt32LE(0) !== ZIP_SIGNATURE.zip64EndOfCentralDirectoryLocator) return null;
  if (locator.readUInt32LE(4) !== 0 || locator.readUInt32LE(16) !== 1) {
    throw invalidPackage('split (multi-disk) archives are not supported');
  }
  const recordOffset = toSafeNumber(locator.readBigUInt64LE(8), 'the zip64 end record offset');
  if (recordOffset + ZIP_RECORD_LENGTH.zip64EndOfCentralDirectory > locatorOffset) {
    throw invalidPackage('the zip64 end record lies outside the archive');
  }
  const record = await file.read(recordOffset, ZIP_RECORD_LENGTH.zip64EndOfCentralDirectory, 'the zip64 end record');
  if (record.readUInt32LE(0) !== ZIP_SIGNATURE.zip64EndOfCentralDirectory) {
    throw invalidPackage('no zip64 end record where the locator points');
  }
  // The record (12 bytes of header plus its declared size) must end at the locator: no hidden bytes.
  const declaredLength = toSafeNumber(record.readBigUInt64LE(4), 'the zip64 end record size');
  if (recordOffset + 12 + declaredLength !== locatorOffset) {
    throw invalidPackage('the zip64 end record does not end at its locator');
  }
  return {
    recordOffset,
    fields: {
      disk: record.readUInt32LE(16),
      directoryDisk: record.readUInt32LE(20),
      entriesOnDisk: toSafeNumber(record.readBigUInt64LE(24), 'the entry count'),
      entryCount: toSafeNumber(record.readBigUInt64LE(32), 'the entry count'),
      size: toSafeNumber(record.readBigUInt64LE(40), 'the central directory size'),
      offset: toSafeNumber(record.readBigUInt64LE(48), 'the central directory offset'),
    },
  };
}

/** True when a 32-bit end record field is either saturated (deferring to zip64) or equal. */
function agrees(narrow: number, wide: number, saturated: number): boolean {
  return narrow === saturated || narrow === wide;
}

/**
 * Reads the end of central directory record (and the zip64 one when present) with plain reads,
 * before the central directory is parsed: the declared entry count and directory size are
 * checked against the limits first, so that a forged count cannot make the parser allocate or loop.
 *
 * @throws PluginHostError `INVALID_PACKAGE` when the file is not a single-disk zip whose central
 *   directory ends exactly where the end records begin; `PACKAGE_TOO_LARGE` (`maxEntries`,
 *   `maxCentralDirectoryBytes`).
 */
export async function locateCentralDirectory(
  file: ArchiveFile,
  limits: Pick<PackageLimits, 'maxEntries' | 'maxCentralDirectoryBytes'>,
): Promise<CentralDirectoryLocation> {
  const end = await findEndRecord(file);
  const narrow: DirectoryFields = {
    disk: end.record.readUInt16LE(4),
    directoryDisk: end.record.readUInt16LE(6),
    entriesOnDisk: end.record.readUInt16LE(8),
    entryCount: end.record.readUInt16LE(10),
    size: end.record.readUInt32LE(12),
    offset: end.record.readUInt32LE(16),
  };

  // Like Python's zipfile, a zip64 locator right before the end record wins: some writers
  // (Info-ZIP `zip -fz`) add zip64 records even when the 32-bit fields would do.
  const zip64 = await readZip64Fields(file, end.offset);
  let fields = narrow;
  let directoryEnd = end.offset;
  if (zip64) {
    const wide = zip64.fields;
    const consistent =
      agrees(narrow.disk, wide.disk, UINT16_SATURATED) &&
      agrees(narrow.directoryDisk, wide.directoryDisk, UINT16_SATURATED) &&
      agrees(narrow.entriesOnDisk, wide.entriesOnDisk, UINT16_SATURATED) &&
      agrees(narrow.entryCount, wide.entryCount, UINT16_SATURATED) &&
      agrees(narrow.size, wide.size, UINT32_SATURATED) &&
      agrees(narrow.offset, wide.offset, UINT32_SATURATED);
    if (!consistent) throw invalidPackage('the end record and the zip64 end record disagree');
    fields = wide;
    directoryEnd = zip64.recordOffset;
  }

  if (fields.disk !== 0 || fields.directoryDisk !== 0 || fields.entriesOnDisk !== fields.entryCount) {
    throw invalidPackage('split (multi-disk) archives are not supported');
  }
  if (fields.entryCount > limits.maxEntries) {
    throw tooLarge('maxEntries', limits.maxEntries, fields.entryCount, 'the declared number of entries');
  }
  if (fields.size > limits.maxCentralDirectoryBytes) {
    throw tooLarge('maxCentralDirectoryBytes', limits.maxCentralDirectoryBytes, fields.size, 'the central directory size');
  }
  // Each central header is at least 46 bytes: a count that cannot fit is a lie.
  if (fields.entryCount * ZIP_RECORD_LENGTH.centralFileHeader > fields.size) {
    throw invalidPackage(`the archive declares ${fields.entryCount} entries, more than its central directory can hold`);
  }
  // The directory must end exactly where the end records begin: bytes before it would be data
  // no entry accounts for (prepended or appended archives, polyglot files).
  if (fields.offset + fields.size !== directoryEnd) {
    throw invalidPackage('the central directory does not end where the end record begins');
  }
  return {
    entryCount: fields.entryCount,
    offset: fields.offset,
    size: fields.size,
    endRecordOffset: end.offset,
    zip64: zip64 !== null,
  };
}
