/**
 * The one deterministic zip writer for `.plugpkg` files (decisions 10), used by `pluginctl pack`
 * and the demo's sample-plugin build: entries in the order given (the caller sorts), one fixed
 * timestamp and file mode for every entry, no folder entries, no extra fields. The same entries
 * always give the same bytes, so a package can be rebuilt and compared.
 */
import { crc32, deflateRawSync } from 'node:zlib';
import { PluginHostError } from '@plughost/host-sdk/core';

/** One file of the archive. */
export interface ZipEntry {
  /** Archive path, forward slashes, no leading slash. */
  readonly name: string;
  readonly data: Uint8Array;
}

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const METHOD_STORED = 0;
const METHOD_DEFLATED = 8;
/** Version 2.0: deflate, no zip64. */
const VERSION_NEEDED = 20;
/** Made by Unix (3), so readers take the mode from the external attributes. */
const VERSION_MADE_BY = (3 << 8) | VERSION_NEEDED;
/** Bit 11: names are UTF-8. */
const FLAG_UTF8 = 0x0800;
/** 1980-01-01 00:00:00, the earliest DOS date: a fixed time says nothing about the build machine. */
const DOS_DATE = (0 << 9) | (1 << 5) | 1;
const DOS_TIME = 0;
/** `-rw-r--r--` regular file, in the high 16 bits of the external attributes. */
const EXTERNAL_ATTRIBUTES = (0o100644 << 16) >>> 0;
const MAX_32 = 0xffffffff;
const MAX_ENTRIES = 0xffff;

interface Prepared {
  name: Buffer;
  method: number;
  crc: number;
  size: number;
  body: Uint8Array;
  offset: number;
}

function prepare(entry: ZipEntry): Omit<Prepared, 'offset'> {
  // Deflate only when it saves space: already-compressed files (wasm, png) stay stored.
  const deflated = deflateRawSync(entry.data, { level: 9 });
  const useDeflate = deflated.length < entry.data.length;
  return {
    name: Buffer.from(entry.name, 'utf8'),
    method: useDeflate ? METHOD_DEFLATED : METHOD_STORED,
    crc: crc32(entry.data),
    size: entry.data.length,
    body: useDeflate ? deflated : entry.data,
  };
}

function localHeader(entry: Prepared): Buffer {
  const header = Buffer.alloc(30);
  header.writeUInt32LE(LOCAL_HEADER, 0);
  header.writeUInt16LE(VERSION_NEEDED, 4);
  header.writeUInt16LE(FLAG_UTF8, 6);
  header.writeUInt16LE(entry.method, 8);
  header.writeUInt16LE(DOS_TIME, 10);
  header.writeUInt16LE(DOS_DATE, 12);
  header.writeUInt32LE(entry.crc, 14);
  header.writeUInt32LE(entry.body.length, 18);
  header.writeUInt32LE(entry.size, 22);
  header.writeUInt16LE(entry.name.length, 26);
  header.writeUInt16LE(0, 28);
  return header;
}

function centralHeader(entry: Prepared): Buffer {
  const header = Buffer.alloc(46);
  header.writeUInt32LE(CENTRAL_HEADER, 0);
  header.writeUInt16LE(VERSION_MADE_BY, 4);
  header.writeUInt16LE(VERSION_NEEDED, 6);
  header.writeUInt16LE(FLAG_UTF8, 8);
  header.writeUInt16LE(entry.method, 10);
  header.writeUInt16LE(DOS_TIME, 12);
  header.writeUInt16LE(DOS_DATE, 14);
  header.writeUInt32LE(entry.crc, 16);
  header.writeUInt32LE(entry.body.length, 20);
  header.writeUInt32LE(entry.size, 24);
  header.writeUInt16LE(entry.name.length, 28);
  // Extra field, comment, disk number and internal attributes stay 0.
  header.writeUInt32LE(EXTERNAL_ATTRIBUTES, 38);
  header.writeUInt32LE(entry.offset, 42);
  return header;
}

/**
 * Writes `entries` as one zip archive, in the given order.
 *
 * @throws PluginHostError `PACKAGE_TOO_LARGE` beyond what a zip without zip64 can hold (4 GiB, 65,535
 *   entries); launchers refuse far smaller packages anyway.
 */
export function writeZip(entries: readonly ZipEntry[]): Buffer {
  if (entries.length > MAX_ENTRIES) {
    throw new PluginHostError('PACKAGE_TOO_LARGE', `${entries.length} files is more than a package can hold (${MAX_ENTRIES}). Exclude files with .plugignore.`);
  }
  const parts: Uint8Array[] = [];
  const prepared: Prepared[] = [];
  let offset = 0;
  for (const entry of entries) {
    const item: Prepared = { ...prepare(entry), offset };
    const header = localHeader(item);
    parts.push(header, item.name, item.body);
    offset += header.length + item.name.length + item.body.length;
    if (offset > MAX_32) throw new PluginHostError('PACKAGE_TOO_LARGE', 'The package would be larger than 4 GiB. Exclude files with .plugignore.');
    prepared.push(item);
  }
  const centralStart = offset;
  for (const item of prepared) {
    const header = centralHeader(item);
    parts.push(header, item.name);
    offset += header.length + item.name.length;
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(END_OF_CENTRAL_DIRECTORY, 0);
  end.writeUInt16LE(prepared.length, 8);
  end.writeUInt16LE(prepared.length, 10);
  end.writeUInt32LE(offset - centralStart, 12);
  end.writeUInt32LE(centralStart, 16);
  parts.push(end);
  return Buffer.concat(parts);
}
