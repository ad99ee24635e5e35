import { mkdir, open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { resolveInside } from './destination.js';
import { METADATA_FILES } from './inspect-entries.js';
import type { EntryExtent } from './local-header.js';
import { verifyEntryData } from './verify-entry-data.js';

/** Streams the uncompressed data of one entry (`readEntryData` bound to the archive). */
export type EntryDataReader = (extent: EntryExtent) => AsyncIterable<Uint8Array>;

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

async function writeAll(handle: FileHandle, chunk: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < chunk.length) {
    const { bytesWritten } = await handle.write(chunk, offset, chunk.length - offset);
    offset += bytesWritten;
  }
}

/**
 * Writes the checked entries (their measured extents, in central directory order) into `root`
 * (a fresh, empty folder), one at a time. Files are created with exclusive create (`wx`): nothing that already exists,
 * whatever put it there, is ever opened or followed. Nothing but plain files and folders is
 * created, and no mode or time from the archive is applied.
 *
 * @throws PluginHostError from {@link verifyEntryData}; file system errors unchanged.
 */
export async function writeEntries(
  root: string,
  extents: readonly EntryExtent[],
  readData: EntryDataReader,
  metadataFiles: readonly string[] = METADATA_FILES,
): Promise<WrittenEntries> {
  const files: PackageFile[] = [];
  const metadata = new Map<string, Uint8Array>();
  const folders = new Set<string>([root]);
  const ensureFolder = async (folder: string): Promise<void> => {
    if (folders.has(folder)) return;
    await mkdir(folder, { recursive: true });
    folders.add(folder);
  };
  for (const extent of extents) {
    const { entry } = extent;
    const destination = resolveInside(root, entry.path);
    if (entry.kind === 'folder') {
      await ensureFolder(destination);
      continue;
    }
    await ensureFolder(dirname(destination));
    const keep = metadataFiles.includes(entry.path);
    const kept: Uint8Array[] = [];
    const handle = await open(destination, 'wx', 0o644);
    try {
      const verified = await verifyEntryData(
        readData(extent),
        { path: entry.path, size: entry.record.uncompressedSize, crc32: entry.record.crc32 },
        async (chunk) => {
          if (keep) kept.push(Uint8Array.from(chunk));
          await writeAll(handle, chunk);
        },
      );
      files.push(Object.freeze({ path: entry.path, sha256: verified.sha256, size: verified.size }));
    } finally {
      await handle.close();
    }
    if (keep) metadata.set(entry.path, new Uint8Array(Buffer.concat(kept)));
  }
  return { files, metadata };
}
