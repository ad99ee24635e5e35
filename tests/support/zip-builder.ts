/**
 * Hand-written zip writers for tests: honest archives in every shape a real writer produces
 * (stored, deflate, data descriptors, zip64, Unix modes, UTF-8 names), and archives that lie in
 * exactly one chosen way. Nothing here validates: it writes whatever it is told.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { createDeflateRaw, deflateRawSync } from 'node:zlib';
import { crc32, crc32Update } from './crc32.js';

const SIG_LOCAL = 0x04034b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_DESCRIPTOR = 0x08074b50;
const SIG_END = 0x06054b50;
const SIG_ZIP64_END = 0x06064b50;
const SIG_ZIP64_LOCATOR = 0x07064b50;
const FLAG_DESCRIPTOR = 0x0008;
const FLAG_UTF8 = 0x0800;
const MAX32 = 0xffffffff;
// 2024-01-01 00:00:00 in MS-DOS format, so archives are reproducible.
const DOS_TIME = 0;
const DOS_DATE = ((2024 - 1980) << 9) | (1 << 5) | 1;

/** Unix modes for {@link ZipEntry.unixMode}. */
export const UNIX_MODE = {
  file: 0o100644,
  executable: 0o100755,
  folder: 0o040755,
  symlink: 0o120777,
  fifo: 0o010644,
  characterDevice: 0o020644,
  blockDevice: 0o060644,
  socket: 0o140644,
} as const;

/** Header values an archive can lie about. */
export interface HeaderValues {
  crc32?: number;
  compressedSize?: number;
  uncompressedSize?: number;
}

/** One entry to write. Only `name` is required; the defaults make an honest entry. */
export interface ZipEntry {
  /** A string is written as UTF-8; bytes are written as they are (for invalid encodings). */
  name: string | Uint8Array;
  /** Uncompressed content; a string is UTF-8. Default empty. */
  data?: Uint8Array | string;
  /** Default `deflate` for non-empty files, `store` otherwise. */
  method?: 'store' | 'deflate';
  /** Replaces the compressed bytes written (e.g. a truncated deflate stream). */
  compressedData?: Uint8Array;
  /** Sets the UTF-8 flag. Default: set when the name has a non-ASCII byte. */
  utf8Flag?: boolean;
  /** Unix mode in the external attributes. Default file/folder by the name; `0` for none. */
  unixMode?: number;
  /** Raw external attributes, overriding `unixMode`. */
  externalAttributes?: number;
  /** Default 0x031e (Unix, spec 3.0). */
  versionMadeBy?: number;
  /** Streams the entry: zeros in the local header, values in a descriptor after the data. */
  dataDescriptor?: 'signed' | 'unsigned';
  /** Flags OR-ed into both headers (e.g. 0x0001, encrypted). */
  flags?: number;
  /** A raw compression method code for both headers (the data is still deflated or stored). */
  methodCode?: number;
  /** Extra field bytes for both headers (after any zip64 field this writer adds). */
  extraField?: Uint8Array;
  /** Writes sizes (and the offset) in zip64 extra fields, saturating the 32-bit fields. */
  zip64?: boolean;
  /** Lies in both headers and the descriptor. */
  declared?: HeaderValues;
  /** Lies in the data descriptor only. */
  descriptor?: HeaderValues;
  /** Lies in the local header only. */
  local?: HeaderValues & { name?: string | Uint8Array; flags?: number; method?: number; extraField?: Uint8Array };
  /** Writes only the central record (combine with `pointAt`). */
  omitLocal?: boolean;
  /** The local header offset written in the central record. */
  pointAt?: number | ((layout: ZipLayout) => number);
  /** Bytes written just before this entry's local header (unaccounted bytes). */
  bytesBefore?: Uint8Array;
}

/** Whole-archive options. */
export interface ZipOptions {
  /** Archive comment in the end record. */
  comment?: string;
  /** Bytes before the first entry; offsets count them (like a self-extractor stub). */
  prefix?: Uint8Array;
  /** Bytes after the end record. */
  suffix?: Uint8Array;
  /** Entry count written in the end record instead of the real one. */
  declaredEntryCount?: number;
  /** Writes zip64 end records (with saturated 32-bit end record fields). */
  zip64EndRecord?: boolean | { declaredEntryCount?: bigint };
}

/** Where the writer put things, for `pointAt` callbacks and assertions. */
export interface ZipLayout {
  localHeaderOffsets: number[];
  dataOffsets: number[];
  centralDirectoryOffset: number;
}

const encoder = new TextEncoder();

function toBytes(value: string | Uint8Array | undefined): Uint8Array {
  if (value === undefined) return new Uint8Array(0);
  return typeof value === 'string' ? encoder.encode(value) : value;
}

function isFolderName(name: Uint8Array): boolean {
  return name.length > 0 && name[name.length - 1] === 0x2f;
}

function hasNonAscii(bytes: Uint8Array): boolean {
  return bytes.some((byte) => byte >= 0x80);
}

function extraBlock(id: number, body: Buffer): Buffer {
  const header = Buffer.alloc(4);
  header.writeUInt16LE(id, 0);
  header.writeUInt16LE(body.length, 2);
  return Buffer.concat([header, body]);
}

function uint64(...values: number[]): Buffer {
  const body = Buffer.alloc(8 * values.length);
  values.forEach((value, index) => {
    body.writeBigUInt64LE(BigInt(value), index * 8);
  });
  return body;
}

interface PreparedEntry {
  spec: ZipEntry;
  name: Uint8Array;
  flags: number;
  method: number;
  crc32: number;
  compressedSize: number;
  uncompressedSize: number;
  payload: Uint8Array;
  localRecord: Buffer;
}

function prepare(spec: ZipEntry): PreparedEntry {
  const name = toBytes(spec.name);
  const data = toBytes(spec.data);
  const methodName = spec.method ?? (data.length > 0 ? 'deflate' : 'store');
  const payload = spec.compressedData ?? (methodName === 'deflate' ? deflateRawSync(data) : data);
  const utf8 = spec.utf8Flag ?? hasNonAscii(name);
  const flags = (utf8 ? FLAG_UTF8 : 0) | (spec.dataDescriptor ? FLAG_DESCRIPTOR : 0) | (spec.flags ?? 0);
  const method = spec.methodCode ?? (methodName === 'deflate' ? 8 : 0);
  const prepared: PreparedEntry = {
    spec,
    name,
    flags,
    method,
    crc32: spec.declared?.crc32 ?? crc32(data),
    compressedSize: spec.declared?.compressedSize ?? payload.length,
    uncompressedSize: spec.declared?.uncompressedSize ?? data.length,
    payload,
    localRecord: Buffer.alloc(0),
  };
  prepared.localRecord = encodeLocalRecord(prepared);
  return prepared;
}

function encodeLocalRecord(entry: PreparedEntry): Buffer {
  const { spec } = entry;
  const local = spec.local ?? {};
  const name = local.name === undefined ? entry.name : toBytes(local.name);
  const streamed = spec.dataDescriptor !== undefined;
  const crc = local.crc32 ?? (streamed ? 0 : entry.crc32);
  const compressed = local.compressedSize ?? (streamed ? 0 : entry.compressedSize);
  const uncompressed = local.uncompressedSize ?? (streamed ? 0 : entry.uncompressedSize);
  const extra = Buffer.concat([
    spec.zip64 ? extraBlock(0x0001, uint64(uncompressed, compressed)) : Buffer.alloc(0),
    Buffer.from(local.extraField ?? spec.extraField ?? new Uint8Array(0)),
  ]);
  const header = Buffer.alloc(30);
  header.writeUInt32LE(SIG_LOCAL, 0);
  header.writeUInt16LE(spec.zip64 ? 45 : 20, 4);
  header.writeUInt16LE(local.flags ?? entry.flags, 6);
  header.writeUInt16LE(local.method ?? entry.method, 8);
  header.writeUInt16LE(DOS_TIME, 10);
  header.writeUInt16LE(DOS_DATE, 12);
  header.writeUInt32LE(crc >>> 0, 14);
  header.writeUInt32LE(spec.zip64 ? MAX32 : compressed, 18);
  header.writeUInt32LE(spec.zip64 ? MAX32 : uncompressed, 22);
  header.writeUInt16LE(name.length, 26);
  header.writeUInt16LE(extra.length, 28);
  const parts = [header, Buffer.from(name), extra, Buffer.from(entry.payload)];
  if (streamed) {
    const wide = spec.zip64 === true;
    const descriptor = Buffer.alloc(4 + 4 + (wide ? 16 : 8));
    const lie = spec.descriptor ?? {};
    descriptor.writeUInt32LE(SIG_DESCRIPTOR, 0);
    descriptor.writeUInt32LE((lie.crc32 ?? entry.crc32) >>> 0, 4);
    if (wide) {
      descriptor.writeBigUInt64LE(BigInt(lie.compressedSize ?? entry.compressedSize), 8);
      descriptor.writeBigUInt64LE(BigInt(lie.uncompressedSize ?? entry.uncompressedSize), 16);
    } else {
      descriptor.writeUInt32LE(lie.compressedSize ?? entry.compressedSize, 8);
      descriptor.writeUInt32LE(lie.uncompressedSize ?? entry.uncompressedSize, 12);
    }
    parts.push(spec.dataDescriptor === 'unsigned' ? descriptor.subarray(4) : descriptor);
  }
  return Buffer.concat(parts);
}

function encodeCentralRecord(entry: PreparedEntry, localHeaderOffset: number): Buffer {
  const { spec } = entry;
  const folder = isFolderName(entry.name);
  const mode = spec.unixMode ?? (folder ? UNIX_MODE.folder : UNIX_MODE.file);
  const external = spec.externalAttributes ?? (((mode << 16) >>> 0) | (folder ? 0x10 : 0)) >>> 0;
  const extra = Buffer.concat([
    spec.zip64 ? extraBlock(0x0001, uint64(entry.uncompressedSize, entry.compressedSize, localHeaderOffset)) : Buffer.alloc(0),
    Buffer.from(spec.extraField ?? new Uint8Array(0)),
  ]);
  const record = Buffer.alloc(46);
  record.writeUInt32LE(SIG_CENTRAL, 0);
  record.writeUInt16LE(spec.versionMadeBy ?? 0x031e, 4);
  record.writeUInt16LE(spec.zip64 ? 45 : 20, 6);
  record.writeUInt16LE(entry.flags, 8);
  record.writeUInt16LE(entry.method, 10);
  record.writeUInt16LE(DOS_TIME, 12);
  record.writeUInt16LE(DOS_DATE, 14);
  record.writeUInt32LE(entry.crc32 >>> 0, 16);
  record.writeUInt32LE(spec.zip64 ? MAX32 : entry.compressedSize, 20);
  record.writeUInt32LE(spec.zip64 ? MAX32 : entry.uncompressedSize, 24);
  record.writeUInt16LE(entry.name.length, 28);
  record.writeUInt16LE(extra.length, 30);
  record.writeUInt16LE(0, 32); // comment length
  record.writeUInt16LE(0, 34); // disk number start
  record.writeUInt16LE(0, 36); // internal attributes
  record.writeUInt32LE(external, 38);
  record.writeUInt32LE(spec.zip64 ? MAX32 : localHeaderOffset, 42);
  return Buffer.concat([record, Buffer.from(entry.name), extra]);
}

function encodeEndRecords(entryCount: number, directoryOffset: number, directorySize: number, options: ZipOptions): Buffer {
  const comment = toBytes(options.comment);
  const parts: Buffer[] = [];
  const zip64 = options.zip64EndRecord;
  const declared = options.declaredEntryCount ?? entryCount;
  if (zip64) {
    const declared64 = typeof zip64 === 'object' && zip64.declaredEntryCount !== undefined ? zip64.declaredEntryCount : BigInt(declared);
    const record = Buffer.alloc(56);
    record.writeUInt32LE(SIG_ZIP64_END, 0);
    record.writeBigUInt64LE(44n, 4);
    record.writeUInt16LE(0x032d, 12);
    record.writeUInt16LE(45, 14);
    record.writeUInt32LE(0, 16);
    record.writeUInt32LE(0, 20);
    record.writeBigUInt64LE(declared64, 24);
    record.writeBigUInt64LE(declared64, 32);
    record.writeBigUInt64LE(BigInt(directorySize), 40);
    record.writeBigUInt64LE(BigInt(directoryOffset), 48);
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(SIG_ZIP64_LOCATOR, 0);
    locator.writeUInt32LE(0, 4);
    locator.writeBigUInt64LE(BigInt(directoryOffset + directorySize), 8);
    locator.writeUInt32LE(1, 16);
    parts.push(record, locator);
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(SIG_END, 0);
  end.writeUInt16LE(0, 4);
  end.writeUInt16LE(0, 6);
  end.writeUInt16LE(zip64 ? 0xffff : Math.min(declared, 0xffff), 8);
  end.writeUInt16LE(zip64 ? 0xffff : Math.min(declared, 0xffff), 10);
  end.writeUInt32LE(zip64 ? MAX32 : directorySize, 12);
  end.writeUInt32LE(zip64 ? MAX32 : directoryOffset, 16);
  end.writeUInt16LE(comment.length, 20);
  parts.push(end, Buffer.from(comment));
  return Buffer.concat(parts);
}

/**
 * Writes a zip archive in memory.
 *
 * @example
 * ```ts
 * buildZip([{ name: 'manifest.json', data: '{}' }, { name: '../evil', data: 'x' }]);
 * ```
 */
export function buildZip(entries: readonly ZipEntry[], options: ZipOptions = {}): Buffer {
  const prepared = entries.map(prepare);
  const parts: Buffer[] = [];
  let offset = 0;
  const push = (part: Uint8Array): void => {
    parts.push(Buffer.from(part.buffer, part.byteOffset, part.byteLength));
    offset += part.length;
  };
  if (options.prefix) push(options.prefix);
  const layout: ZipLayout = { localHeaderOffsets: [], dataOffsets: [], centralDirectoryOffset: 0 };
  for (const entry of prepared) {
    if (entry.spec.bytesBefore) push(entry.spec.bytesBefore);
    layout.localHeaderOffsets.push(offset);
    layout.dataOffsets.push(offset + entry.localRecord.readUInt16LE(26) + entry.localRecord.readUInt16LE(28) + 30);
    if (!entry.spec.omitLocal) push(entry.localRecord);
  }
  layout.centralDirectoryOffset = offset;
  const central = Buffer.concat(
    prepared.map((entry, index) => {
      const pointAt = entry.spec.pointAt;
      const localOffset = typeof pointAt === 'function' ? pointAt(layout) : (pointAt ?? layout.localHeaderOffsets[index]!);
      return encodeCentralRecord(entry, localOffset);
    }),
  );
  push(central);
  push(encodeEndRecords(prepared.length, layout.centralDirectoryOffset, central.length, options));
  if (options.suffix) push(options.suffix);
  return Buffer.concat(parts);
}

/** The local record (header, data, descriptor) `buildZip` would write for `entry`. */
export function localRecordOf(entry: ZipEntry): Buffer {
  return prepare(entry).localRecord;
}

/** One entry for {@link writeStreamingZip}. */
export interface StreamingZipEntry {
  name: string;
  /** Content, produced chunk by chunk; a Uint8Array is sent as one chunk. */
  data: Uint8Array | Iterable<Uint8Array> | AsyncIterable<Uint8Array>;
  method: 'store' | 'deflate';
}

/**
 * A second, independent writer: it streams each entry to a file through `zlib.createDeflateRaw`,
 * computing the CRC on the fly, so it cannot know sizes up front and uses data descriptors (as
 * streaming tools such as Java's ZipOutputStream and archiver do) and the UTF-8 flag.
 */
export async function writeStreamingZip(path: string, entries: readonly StreamingZipEntry[]): Promise<void> {
  const out = createWriteStream(path);
  let offset = 0;
  const write = async (bytes: Uint8Array): Promise<void> => {
    offset += bytes.length;
    if (!out.write(bytes)) await once(out, 'drain');
  };
  const central: Buffer[] = [];
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const method = entry.method === 'deflate' ? 8 : 0;
    const flags = FLAG_DESCRIPTOR | FLAG_UTF8;
    const headerOffset = offset;
    const header = Buffer.alloc(30);
    header.writeUInt32LE(SIG_LOCAL, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(flags, 6);
    header.writeUInt16LE(method, 8);
    header.writeUInt16LE(DOS_TIME, 10);
    header.writeUInt16LE(DOS_DATE, 12);
    header.writeUInt16LE(name.length, 26);
    await write(header);
    await write(name);

    let crc = 0;
    let uncompressed = 0;
    let compressed = 0;
    const chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array> = entry.data instanceof Uint8Array ? [entry.data] : entry.data;
    if (method === 0) {
      for await (const chunk of chunks) {
        crc = crc32Update(crc, chunk);
        uncompressed += chunk.length;
        compressed += chunk.length;
        await write(chunk);
      }
    } else {
      const deflater = createDeflateRaw();
      const feed = (async () => {
        for await (const chunk of chunks) {
          crc = crc32Update(crc, chunk);
          uncompressed += chunk.length;
          if (!deflater.write(chunk)) await once(deflater, 'drain');
        }
        deflater.end();
      })().catch((error: unknown) => deflater.destroy(error as Error));
      for await (const chunk of deflater as AsyncIterable<Buffer>) {
        compressed += chunk.length;
        await write(chunk);
      }
      await feed;
    }
    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(SIG_DESCRIPTOR, 0);
    descriptor.writeUInt32LE(crc, 4);
    descriptor.writeUInt32LE(compressed, 8);
    descriptor.writeUInt32LE(uncompressed, 12);
    await write(descriptor);

    const record = Buffer.alloc(46);
    record.writeUInt32LE(SIG_CENTRAL, 0);
    record.writeUInt16LE(0x0314, 4);
    record.writeUInt16LE(20, 6);
    record.writeUInt16LE(flags, 8);
    record.writeUInt16LE(method, 10);
    record.writeUInt16LE(DOS_TIME, 12);
    record.writeUInt16LE(DOS_DATE, 14);
    record.writeUInt32LE(crc, 16);
    record.writeUInt32LE(compressed, 20);
    record.writeUInt32LE(uncompressed, 24);
    record.writeUInt16LE(name.length, 28);
    record.writeUInt32LE((UNIX_MODE.file << 16) >>> 0, 38);
    record.writeUInt32LE(headerOffset, 42);
    central.push(record, name);
  }
  const directory = Buffer.concat(central);
  const directoryOffset = offset;
  await write(directory);
  await write(encodeEndRecords(entries.length, directoryOffset, directory.length, {}));
  out.end();
  await finished(out);
}
