import type { CentralRecord } from './central-directory.js';
import { crc32 } from './crc32.js';
import { findUnicodePath } from './extra-fields.js';
import { unsafeEntry } from './package-errors.js';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Decodes an entry name. Names are read as strict UTF-8, whether or not the entry sets the UTF-8
 * flag:
 *
 * - Info-ZIP `zip` on Linux and the macOS archiver store UTF-8 names without the flag, so
 *   refusing them would refuse ordinary packages.
 * - The only other encoding zip writers use, CP437 (old Windows tools), agrees with UTF-8 on
 *   every ASCII byte, so `/`, `\`, `.` and NUL mean the same to every reader: decoding cannot
 *   change the structure of a path, only how a non-ASCII letter looks.
 * - Bytes that are not valid UTF-8 (a legacy code page) are refused, never guessed.
 *
 * An Info-ZIP Unicode Path extra field that applies to this name (its CRC matches) must spell the
 * same name: other readers prefer it, and would extract a different path.
 *
 * @throws PluginHostError `UNSAFE_ENTRY_PATH` for undecodable or contradictory names.
 */
export function decodeEntryName(record: CentralRecord): string {
  let name: string;
  try {
    // ASCII is valid UTF-8, so one strict decoder serves every name; a BOM is kept, not dropped.
    name = strictUtf8.decode(record.nameBytes);
  } catch {
    throw unsafeEntry(record.displayName, 'the name is not valid UTF-8 (names in legacy code pages are not supported)');
  }
  const unicodePath = findUnicodePath(record.extraField, record.displayName);
  if (unicodePath && unicodePath.version === 1 && unicodePath.headerNameCrc32 === crc32(record.nameBytes)) {
    if (Buffer.compare(Buffer.from(unicodePath.name), Buffer.from(name, 'utf8')) !== 0) {
      throw unsafeEntry(name, 'its Unicode Path extra field names a different path');
    }
  }
  return name;
}
