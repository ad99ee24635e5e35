import type { ArchiveFile } from './archive-file.js';
import type { CentralDirectoryLocation } from './end-of-central-directory.js';
import { resolveZip64Values } from './extra-fields.js';
import { invalidPackage } from './package-errors.js';
import { UINT16_SATURATED, UINT32_SATURATED, ZIP_RECORD_LENGTH, ZIP_SIGNATURE } from './zip-format.js';

/** One central directory header, with zip64 values already applied. */
export interface CentralRecord {
  /** Position in the central directory (0-based). */
  index: number;
  /** Offset of this header in the archive. */
  headerOffset: number;
  versionMadeBy: number;
  flags: number;
  method: number;
  crc32: number;
  compressedSize: number;
  uncompressedSize: number;
  externalAttributes: number;
  localHeaderOffset: number;
  /** The name exactly as stored. */
  nameBytes: Uint8Array;
  /** The name decoded leniently, for messages only; never used as a path. */
  displayName: string;
  extraField: Uint8Array;
}

/**
 * Parses the central directory from its raw bytes (at most `maxCentralDirectoryBytes`, checked
 * before). Every header must start with its signature, lie inside the directory, and the headers
 * together must fill the directory exactly, so no bytes hide between them.
 *
 * @throws PluginHostError `INVALID_PACKAGE` on any malformed header.
 */
export async function readCentralDirectory(file: ArchiveFile, location: CentralDirectoryLocation): Promise<CentralRecord[]> {
  const raw = await file.read(location.offset, location.size, 'the central directory');
  const records: CentralRecord[] = [];
  let position = 0;
  for (let index = 0; index < location.entryCount; index++) {
    if (position + ZIP_RECORD_LENGTH.centralFileHeader > raw.length) {
      throw invalidPackage('the central directory is shorter than its declared entry count');
    }
    if (raw.readUInt32LE(position) !== ZIP_SIGNATURE.centralFileHeader) {
      throw invalidPackage(`central directory header ${index} has no signature`);
    }
    const nameLength = raw.readUInt16LE(position + 28);
    const extraLength = raw.readUInt16LE(position + 30);
    const commentLength = raw.readUInt16LE(position + 32);
    const nameStart = position + ZIP_RECORD_LENGTH.centralFileHeader;
    const end = nameStart + nameLength + extraLength + commentLength;
    if (end > raw.length) throw invalidPackage(`central directory header ${index} runs past the directory`);
    const nameBytes = raw.subarray(nameStart, nameStart + nameLength);
    const displayName = nameBytes.toString('utf8');
    const extraField = raw.subarray(nameStart + nameLength, nameStart + nameLength + extraLength);

    const diskStart = raw.readUInt16LE(position + 34);
    if (diskStart !== 0 && diskStart !== UINT16_SATURATED) {
      throw invalidPackage('split (multi-disk) archives are not supported');
    }
    const narrowUncompressed = raw.readUInt32LE(position + 24);
    const narrowCompressed = raw.readUInt32LE(position + 20);
    const narrowOffset = raw.readUInt32LE(position + 42);
    const [uncompressedSize, compressedSize, localHeaderOffset] = resolveZip64Values(
      extraField,
      [
        { name: 'uncompressed size', value: narrowUncompressed, saturated: narrowUncompressed === UINT32_SATURATED },
        { name: 'compressed size', value: narrowCompressed, saturated: narrowCompressed === UINT32_SATURATED },
        { name: 'local header offset', value: narrowOffset, saturated: narrowOffset === UINT32_SATURATED },
      ],
      displayName,
    ) as [number, number, number];

    records.push({
      index,
      headerOffset: location.offset + position,
      versionMadeBy: raw.readUInt16LE(position + 4),
      flags: raw.readUInt16LE(position + 8),
      method: raw.readUInt16LE(position + 10),
      crc32: raw.readUInt32LE(position + 16),
      compressedSize,
      uncompressedSize,
      externalAttributes: raw.readUInt32LE(position + 38),
      localHeaderOffset,
      nameBytes,
      displayName,
      extraField,
    });
    position = end;
  }
  if (position !== raw.length) {
    throw invalidPackage('the central directory holds bytes that belong to no entry');
  }
  return records;
}
