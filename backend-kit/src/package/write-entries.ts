import { open, type FileHandle } from 'node:fs/promises';
import { mkdir, writeFile } from '../services/filesystem/changes.js';
import { dirname } from 'node:path';
import { resolveInside } from './destination.js';
import { METADATA_FILES } from './inspect-entries.js';
import type { EntryExtent } from './local-header.js';
import { verifyEntryData, verifyWholeEntry, type VerifiedEntryData } from './verify-entry-data.js';

/** Where the entries' uncompressed data comes from (the archive, bound to checked extents). */
export interface EntryDataSource {
  /** True when an entry is small enough to be read whole (`isSmallEntry`). */
  isSmall(extent: EntryExtent): boolean;
  /** A small entry's data whole (`readWholeEntryData`). */
  whole(extent: EntryExtent): Promise<Uint8Array>;
  /** A large entry's data as a stream (`readEntryData`). */
  stream(extent: EntryExtent): AsyncIterable<Uint8Array>;
}

/** One extracted file, as the signature check and the installer need it. */
export interface PackageFile {
  /** The path exactly as stored in the archive (forward slashes, no leading `/`). */
  readonly path: string;
  /** Lowercase hex SHA-256 of the uncompressed bytes. */
  readonly sha256: string;
  /** Uncompressed size in bytes. */
  readonly size: number;
}

/** What writing the entries produced. */
export interface WrittenEntries {
  files: PackageFile[];
  /** Bytes of the metadata files that exist (`manifest.json` and the signature files of a package). */
  metadata: Map<string, Uint8Array>;
}

/**
 * Entries written at once. Each file costs a few file-system round trips (create, write, close)
 * that the thread pool serves in parallel; one at a time, the reader mostly waits. Every entry in
 * flight holds at most `WHOLE_ENTRY_MAX_BYTES` twice (compressed and not), or one stream's buffers.
 */
const ENTRIES_IN_FLIGHT = 8;

/** Files are created with exclusive create: nothing that exists, whatever put it there, is opened or followed. */
const NEW_FILE = { flag: 'wx', mode: 0o644 } as const;

async function writeAll(handle: FileHandle, chunk: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < chunk.length) {
    const { bytesWritten } = await handle.write(chunk, offset, chunk.length - offset);
    offset += bytesWritten;
  }
}

/** Streams a large entry into `destination`, verifying on the way (the file is created first). */
async function streamEntry(destination: string, extent: EntryExtent, source: EntryDataSource, keep: Uint8Array[] | null): Promise<VerifiedEntryData> {
  const { record, path } = extent.entry;
  const handle = await open(destination, NEW_FILE.flag, NEW_FILE.mode);
  try {
    return await verifyEntryData(source.stream(extent), { path, size: record.uncompressedSize, crc32: record.crc32 }, async (chunk) => {
      if (keep) keep.push(Uint8Array.from(chunk));
      await writeAll(handle, chunk);
    });
  } finally {
    await handle.close();
  }
}

/**
 * Writes the checked entries (their measured extents, in central directory order) into `root`
 * (a fresh, empty folder), several at a time. A small entry is read, inflated and verified whole
 * before its file is created; a large one streams into its file, verified on the way. Nothing but
 * plain files and folders is created, and no mode or time from the archive is applied. The files
 * are listed in central directory order, whatever order they finished in. On the first failure no
 * further entry starts, the entries in flight finish, and the failure is thrown (the caller
 * removes the folder).
 *
 * @throws PluginHostError from `verifyEntryData` / `verifyWholeEntry` and the readers; file system errors unchanged.
 */
export async function writeEntries(
  root: string,
  extents: readonly EntryExtent[],
  source: EntryDataSource,
  metadataFiles: readonly string[] = METADATA_FILES,
): Promise<WrittenEntries> {
  const files: (PackageFile | undefined)[] = new Array(extents.length);
  const metadata = new Map<string, Uint8Array>();
  const folders = new Map<string, Promise<unknown>>([[root, Promise.resolve()]]);
  const ensureFolder = (folder: string): Promise<unknown> => {
    let made = folders.get(folder);
    if (made === undefined) {
      made = mkdir(folder, { recursive: true });
      folders.set(folder, made);
    }
    return made;
  };

  const writeOne = async (index: number): Promise<void> => {
    const extent = extents[index] as EntryExtent;
    const { entry } = extent;
    const destination = resolveInside(root, entry.path);
    if (entry.kind === 'folder') {
      await ensureFolder(destination);
      return;
    }
    const keep = metadataFiles.includes(entry.path);
    let verified: VerifiedEntryData;
    if (source.isSmall(extent)) {
      const data = await source.whole(extent);
      verified = verifyWholeEntry(data, { path: entry.path, size: entry.record.uncompressedSize, crc32: entry.record.crc32 });
      await ensureFolder(dirname(destination));
      await writeFile(destination, data, NEW_FILE);
      if (keep) metadata.set(entry.path, Uint8Array.from(data));
    } else {
      await ensureFolder(dirname(destination));
      const kept: Uint8Array[] | null = keep ? [] : null;
      verified = await streamEntry(destination, extent, source, kept);
      if (kept) metadata.set(entry.path, new Uint8Array(Buffer.concat(kept)));
    }
    files[index] = Object.freeze({ path: entry.path, sha256: verified.sha256, size: verified.size });
  };

  let next = 0;
  let failure: { error: unknown } | undefined;
  const lane = async (): Promise<void> => {
    while (failure === undefined && next < extents.length) {
      const index = next++;
      try {
        await writeOne(index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(ENTRIES_IN_FLIGHT, extents.length) }, lane));
  if (failure) throw failure.error;
  return { files: files.filter((file): file is PackageFile => file !== undefined), metadata };
}
