import { invalidPackage, quoteEntry } from './package-errors.js';
import { ZIP_EXTRA_FIELD } from './zip-format.js';

/**
 * Finds the extra field block with header id `id` in a local or central extra field.
 *
 * A block that is listed twice is refused: readers that take the first and readers that take the
 * last would see different sizes or names. Trailing bytes too short to form a block are ignored,
 * as other readers do (old aligners padded with zeros).
 *
 * @throws PluginHostError `INVALID_PACKAGE` when an interpreted block appears twice.
 */
export function findExtraField(extra: Uint8Array, id: number, entry: string): Uint8Array | undefined {
  const view = Buffer.from(extra.buffer, extra.byteOffset, extra.byteLength);
  let found: Uint8Array | undefined;
  let position = 0;
  while (position + 4 <= view.length) {
    const blockId = view.readUInt16LE(position);
    const blockLength = view.readUInt16LE(position + 2);
    const start = position + 4;
    if (start + blockLength > view.length) break;
    if (blockId === id) {
      if (found) {
        throw invalidPackage(`entry ${quoteEntry(entry)} repeats extra field 0x${id.toString(16).padStart(4, '0')}`, {
          entry,
        });
      }
      found = view.subarray(start, start + blockLength);
    }
    position = start + blockLength;
  }
  return found;
}

/** A 32-bit header value and whether it is saturated (deferring to the zip64 extra field). */
export interface Zip64Candidate {
  name: string;
  value: number;
  saturated: boolean;
}

/**
 * Replaces saturated header values by the 64-bit values of the zip64 extra field. The field holds
 * one 8-byte value per saturated header field, in the order of `candidates` (uncompressed size,
 * compressed size, local header offset).
 *
 * @throws PluginHostError `INVALID_PACKAGE` when a saturated value has no zip64 value or the
 *   value is beyond what a file on this machine can hold.
 */
export function resolveZip64Values(extra: Uint8Array, candidates: readonly Zip64Candidate[], entry: string): number[] {
  const wanted = candidates.filter((candidate) => candidate.saturated).length;
  if (wanted === 0) {
    // Still parsed, so that a duplicated zip64 block is refused even when unused.
    findExtraField(extra, ZIP_EXTRA_FIELD.zip64, entry);
    return candidates.map((candidate) => candidate.value);
  }
  const block = findExtraField(extra, ZIP_EXTRA_FIELD.zip64, entry);
  if (!block || block.length < wanted * 8) {
    throw invalidPackage(`entry ${quoteEntry(entry)} lacks the zip64 sizes its header defers to`, { entry });
  }
  const view = Buffer.from(block.buffer, block.byteOffset, block.byteLength);
  let position = 0;
  return candidates.map((candidate) => {
    if (!candidate.saturated) return candidate.value;
    const value = view.readBigUInt64LE(position);
    position += 8;
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) {
      throw invalidPackage(`entry ${quoteEntry(entry)} declares an impossible ${candidate.name}`, { entry });
    }
    return Number(value);
  });
}

/** The Info-ZIP Unicode Path extra field: a UTF-8 name and the CRC-32 of the header name it replaces. */
export interface UnicodePathField {
  version: number;
  headerNameCrc32: number;
  name: Uint8Array;
}

/** Reads the Info-ZIP Unicode Path extra field (0x7075), when present and well formed. */
export function findUnicodePath(extra: Uint8Array, entry: string): UnicodePathField | undefined {
  const block = findExtraField(extra, ZIP_EXTRA_FIELD.unicodePath, entry);
  if (!block || block.length < 5) return undefined;
  const view = Buffer.from(block.buffer, block.byteOffset, block.byteLength);
  return { version: view.readUInt8(0), headerNameCrc32: view.readUInt32LE(1), name: view.subarray(5) };
}
