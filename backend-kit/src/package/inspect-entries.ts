import { ErrorCode, PACKAGE_PATH_PROBLEM_TEXT, PluginHostError, findPackagePathProblem, packagePathCollisionKey } from '@plughost/host-sdk/core';
import type { CentralRecord } from './central-directory.js';
import { decodeEntryName } from './entry-name.js';
import { classifyEntry, type EntryKind } from './entry-type.js';
import type { PackageLimits } from './limits.js';
import { INVALID_PACKAGE_MESSAGE, invalidPackage, quoteEntry, tooLarge, unsafeEntry } from './package-errors.js';
import { ZIP_ENCRYPTION_FLAGS, ZIP_METHOD } from './zip-format.js';

/** An entry that passed every check that needs only the central directory. */
export interface InspectedEntry {
  record: CentralRecord;
  /** The decoded name exactly as stored (folders keep their trailing `/`). */
  path: string;
  kind: EntryKind;
}

/** The root files whose bytes the reader hands back in memory. */
export const METADATA_FILES = ['manifest.json', 'signature.json', 'signature.cert.json'] as const;

/** Which archive rules apply beyond the ones every zip obeys. */
export interface ArchiveRules {
  /** Root files whose bytes are kept in memory (bounded by `maxMetadataFileBytes`). */
  readonly metadataFiles: readonly string[];
  /** Plugin package rules: a root `manifest.json` is required and the reserved root names are refused. */
  readonly pluginPackage: boolean;
}

/** The rules of a `.plugpkg` plugin package. */
export const PLUGIN_PACKAGE_RULES: ArchiveRules = Object.freeze({ metadataFiles: METADATA_FILES, pluginPackage: true });

/**
 * Root names the backend writes next to the plugin's files (decisions §2). A package must not
 * bring its own: the file route would serve them and an install would overwrite the user's data.
 * Compared case-insensitively, as they collide on Windows and macOS.
 */
const RESERVED_ROOT_NAMES = new Set(['settings.json', 'cache.json']);

const SAME_ON_FOLDING_SYSTEMS = 'on case-insensitive or normalizing file systems (Windows, macOS)';

type EntryLimits = Pick<
  PackageLimits,
  | 'maxEntryNameBytes'
  | 'maxEntryUncompressedBytes'
  | 'maxTotalUncompressedBytes'
  | 'maxCompressionRatio'
  | 'compressionRatioThresholdBytes'
  | 'maxMetadataFileBytes'
>;

function checkStorage(record: CentralRecord, path: string, kind: EntryKind): void {
  const details = { entry: path };
  if (record.flags & ZIP_ENCRYPTION_FLAGS) {
    throw invalidPackage(`entry ${quoteEntry(path)} is encrypted`, details);
  }
  if (record.method !== ZIP_METHOD.stored && record.method !== ZIP_METHOD.deflated) {
    throw invalidPackage(`entry ${quoteEntry(path)} uses compression method ${record.method} (only stored and deflate are supported)`, details);
  }
  if (kind === 'folder') {
    // Some writers (Java) deflate an empty folder entry to two bytes; its content must be empty.
    if (record.uncompressedSize !== 0 || record.crc32 !== 0) {
      throw invalidPackage(`folder entry ${quoteEntry(path)} has content`, details);
    }
    return;
  }
  if (record.method === ZIP_METHOD.stored && record.compressedSize !== record.uncompressedSize) {
    throw invalidPackage(`stored entry ${quoteEntry(path)} declares different stored and real sizes`, details);
  }
  if (record.compressedSize === 0 && (record.uncompressedSize !== 0 || record.crc32 !== 0)) {
    throw invalidPackage(`entry ${quoteEntry(path)} declares content but has no data`, details);
  }
}

function checkSize(record: CentralRecord, path: string, limits: EntryLimits, metadataFiles: readonly string[]): void {
  const size = record.uncompressedSize;
  if (size > limits.maxEntryUncompressedBytes) {
    const what = `entry ${quoteEntry(path)}`;
    throw tooLarge('maxEntryUncompressedBytes', limits.maxEntryUncompressedBytes, size, what, path);
  }
  if (metadataFiles.includes(path) && size > limits.maxMetadataFileBytes) {
    throw tooLarge('maxMetadataFileBytes', limits.maxMetadataFileBytes, size, `entry ${quoteEntry(path)}`, path);
  }
  // Checked on declared sizes; extraction later refuses any entry whose real size differs.
  if (size > limits.compressionRatioThresholdBytes) {
    const ratio = size / Math.max(record.compressedSize, 1);
    if (ratio > limits.maxCompressionRatio) {
      throw tooLarge(
        'maxCompressionRatio',
        limits.maxCompressionRatio,
        Math.round(ratio * 10) / 10,
        `the compression ratio of entry ${quoteEntry(path)}`,
        path,
      );
    }
  }
}

function inspectOne(record: CentralRecord, limits: EntryLimits, metadataFiles: readonly string[]): InspectedEntry {
  if (record.nameBytes.length > limits.maxEntryNameBytes) {
    const name = record.displayName;
    const shown = name.length > 64 ? `${quoteEntry(name.slice(0, 64))}…` : quoteEntry(name);
    throw tooLarge('maxEntryNameBytes', limits.maxEntryNameBytes, record.nameBytes.length, `the name length of entry ${shown}`, name);
  }
  const path = decodeEntryName(record);
  const problem = findPackagePathProblem(path, { allowTrailingSlash: true });
  if (problem) throw unsafeEntry(path, PACKAGE_PATH_PROBLEM_TEXT[problem]);
  const kind = classifyEntry(record, path);
  checkStorage(record, path, kind);
  checkSize(record, path, limits, metadataFiles);
  return { record, path, kind };
}

/**
 * Refuses names that would land on the same file or folder on a case-insensitive, normalizing
 * file system (Windows, macOS), and a file that has the name of a folder (explicit, or implied by
 * a deeper entry). Either way what is on disk after extraction would depend on the order of the
 * entries and on the platform.
 */
function checkCollisions(entries: readonly InspectedEntry[]): void {
  const byKey = new Map<string, InspectedEntry>();
  // Every folder, explicit or implied by a deeper entry, under its collision key and first spelling.
  const folders = new Map<string, string>();
  const addFolder = (spelling: string, entry: InspectedEntry): void => {
    const key = packagePathCollisionKey(spelling);
    const known = folders.get(key);
    if (known === undefined) folders.set(key, spelling);
    else if (known !== spelling) {
      throw invalidPackage(`folders ${quoteEntry(`${known}/`)} and ${quoteEntry(`${spelling}/`)} are the same folder ${SAME_ON_FOLDING_SYSTEMS}`, {
        entry: entry.path,
        other: `${known}/`,
      });
    }
  };
  for (const entry of entries) {
    const bare = entry.kind === 'folder' ? entry.path.slice(0, -1) : entry.path;
    const key = packagePathCollisionKey(bare);
    const earlier = byKey.get(key);
    if (earlier) {
      const both = `entries ${quoteEntry(earlier.path)} and ${quoteEntry(entry.path)}`;
      const reason =
        earlier.kind !== entry.kind
          ? `${both} make a file and a folder of the same name`
          : earlier.path === entry.path
            ? `entry ${quoteEntry(entry.path)} appears twice`
            : `${both} name the same path ${SAME_ON_FOLDING_SYSTEMS}`;
      throw invalidPackage(reason, { entry: entry.path, other: earlier.path });
    }
    byKey.set(key, entry);
    const segments = bare.split('/');
    for (let depth = 1; depth < segments.length; depth++) addFolder(segments.slice(0, depth).join('/'), entry);
    if (entry.kind === 'folder') addFolder(bare, entry);
  }
  for (const [key, entry] of byKey) {
    const folder = folders.get(key);
    if (entry.kind === 'file' && folder !== undefined) {
      throw invalidPackage(`file ${quoteEntry(entry.path)} has the name of folder ${quoteEntry(`${folder}/`)}`, {
        entry: entry.path,
        other: `${folder}/`,
      });
    }
  }
}

/**
 * Applies every rule that needs only the central directory, before anything is written: entry
 * name length, name encoding, path safety, entry type, encryption and compression method,
 * per-entry, ratio, metadata and total size limits, collisions, and for plugin packages the
 * reserved root names and the root manifest.
 *
 * @throws PluginHostError `UNSAFE_ENTRY_PATH`, `INVALID_PACKAGE` (message exactly
 *   `Invalid plugin package` when there is no root `manifest.json`) or `PACKAGE_TOO_LARGE`.
 */
export function inspectEntries(records: readonly CentralRecord[], limits: EntryLimits, rules: ArchiveRules = PLUGIN_PACKAGE_RULES): InspectedEntry[] {
  const entries: InspectedEntry[] = [];
  let total = 0;
  for (const record of records) {
    const entry = inspectOne(record, limits, rules.metadataFiles);
    total += record.uncompressedSize;
    if (total > limits.maxTotalUncompressedBytes) {
      throw tooLarge('maxTotalUncompressedBytes', limits.maxTotalUncompressedBytes, total, 'the total uncompressed size');
    }
    entries.push(entry);
  }
  checkCollisions(entries);
  if (!rules.pluginPackage) return entries;
  for (const entry of entries) {
    const root = entry.path.split('/')[0] ?? '';
    if (RESERVED_ROOT_NAMES.has(packagePathCollisionKey(root))) {
      throw invalidPackage(`the package must not contain ${quoteEntry(root)} at its root; the launcher keeps its own there`, { entry: entry.path });
    }
  }
  if (!entries.some((entry) => entry.kind === 'file' && entry.path === 'manifest.json')) {
    throw new PluginHostError(ErrorCode.INVALID_PACKAGE, INVALID_PACKAGE_MESSAGE, {
      reason: 'missing-manifest',
      entry: 'manifest.json',
    });
  }
  return entries;
}
