/**
 * A small zip writer for plugin packages: files only (no folder entries), deflated when that is
 * smaller (else stored), UTF-8 names (flag bit 11), sizes and CRC in the local headers (no data
 * descriptors), no zip64. The timestamp is fixed, so the same files always give the same bytes.
 */
import { crc32, deflateRawSync } from 'node:zlib';

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const FLAG_UTF8 = 0x0800;
const METHOD_STORE = 0;
const METHOD_DEFLATE = 8;
const VERSION_NEEDED = 20; // 2.0: deflate
const VERSION_MADE_BY = (3 << 8) | 20; // Unix, 2.0: the external attributes hold a Unix mode
const UNIX_REGULAR_FILE = 0o100644;
const MAX_UINT16 = 0xffff;
const MAX_UINT32 = 0xffffffff;
// 2024-01-01 00:00:00 in MS-DOS format.
const DOS_TIME = 0;
const DOS_DATE = ((2024 - 1980) << 9) | (1 << 5) | 1;

/**
 * Builds a zip archive.
 *
 * @param {readonly {name: string, data: Uint8Array}[]} entries Files in archive order; `name` is
 *   a relative path with forward slashes.
 * @returns {Buffer} The archive.
 */
export function createZip(entries) {
  if (entries.length > MAX_UINT16) throw new Error(`A zip without zip64 holds at most ${MAX_UINT16} entries`);
  const seen = new Set();
  const parts = [];
  const central = [];
  let offset = 0;
  for (const { name, data } of entries) {
    if (typeof name !== 'string' || name === '' || name.startsWith('/') || name.endsWith('/') || name.includes('\\')) {
      throw new Error(`Invalid zip entry name: ${JSON.stringify(name)}`);
    }
    if (seen.has(name)) throw new Error(`Duplicate zip entry: ${name}`);
    seen.add(name);

    const nameBytes = Buffer.from(name, 'utf8');
    const deflated = deflateRawSync(data, { level: 9 });
    const method = deflated.length < data.length ? METHOD_DEFLATE : METHOD_STORE;
    const stored = method === METHOD_DEFLATE ? deflated : data;
    if (data.length > MAX_UINT32 || offset > MAX_UINT32) throw new Error('The archive is too large for a zip without zip64');
    const fields = { method, crc: crc32(data), compressedSize: stored.length, size: data.length, nameLength: nameBytes.length };

    const local = Buffer.alloc(30);
    local.writeUInt32LE(LOCAL_HEADER, 0);
    local.writeUInt16LE(VERSION_NEEDED, 4);
    writeCommonFields(local, 6, fields);
    local.writeUInt16LE(0, 28); // extra field length
    parts.push(local, nameBytes, stored);

    const record = Buffer.alloc(46);
    record.writeUInt32LE(CENTRAL_HEADER, 0);
    record.writeUInt16LE(VERSION_MADE_BY, 4);
    record.writeUInt16LE(VERSION_NEEDED, 6);
    writeCommonFields(record, 8, fields);
    // 30: extra field length, 32: comment length, 34: disk number, 36: internal attributes (all 0).
    record.writeUInt32LE((UNIX_REGULAR_FILE << 16) >>> 0, 38);
    record.writeUInt32LE(offset, 42);
    central.push(record, nameBytes);

    offset += local.length + nameBytes.length + stored.length;
  }

  const centralSize = central.reduce((total, part) => total + part.length, 0);
  if (offset > MAX_UINT32 || centralSize > MAX_UINT32) throw new Error('The archive is too large for a zip without zip64');
  const end = Buffer.alloc(22);
  end.writeUInt32LE(END_OF_CENTRAL_DIRECTORY, 0);
  // 4: this disk, 6: disk of the central directory (both 0).
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  end.writeUInt16LE(0, 20); // comment length
  return Buffer.concat([...parts, ...central, end]);
}

/** Flags, method, time, date, CRC, sizes and name length: the same run in both headers. */
function writeCommonFields(buffer, at, { method, crc, compressedSize, size, nameLength }) {
  buffer.writeUInt16LE(FLAG_UTF8, at);
  buffer.writeUInt16LE(method, at + 2);
  buffer.writeUInt16LE(DOS_TIME, at + 4);
  buffer.writeUInt16LE(DOS_DATE, at + 6);
  buffer.writeUInt32LE(crc, at + 8);
  buffer.writeUInt32LE(compressedSize, at + 12);
  buffer.writeUInt32LE(size, at + 16);
  buffer.writeUInt16LE(nameLength, at + 20);
}
