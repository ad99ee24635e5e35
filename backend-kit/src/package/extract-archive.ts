import { mkdtemp } from 'node:fs/promises';
import { rm } from '../services/filesystem/changes.js';
import { join, resolve } from 'node:path';
import { ArchiveFile } from './archive-file.js';
import { readCentralDirectory } from './central-directory.js';
import { locateCentralDirectory } from './end-of-central-directory.js';
import { isSmallEntry, readEntryData, readWholeEntryData } from './entry-data.js';
import { checkEntryLayout } from './entry-layout.js';
import { inspectEntries, type ArchiveRules, type InspectedEntry } from './inspect-entries.js';
import { resolvePackageLimits, type PackageLimits } from './limits.js';
import { readEntryExtent, type EntryExtent } from './local-header.js';
import { writeEntries, type PackageFile } from './write-entries.js';

/** Options of {@link extractArchive}. */
export interface ExtractArchiveOptions {
  /** An existing folder; the extraction folder (`plugpkg-XXXXXX`) is created inside it. */
  workDirectory: string;
  /** Overrides of `DEFAULT_PACKAGE_LIMITS`; omitted limits keep their default. */
  limits?: Partial<PackageLimits>;
  /**
   * Root files whose bytes are also returned in memory (for example `modrinth.index.json`),
   * each at most `maxMetadataFileBytes`.
   */
  keepInMemory?: readonly string[];
}

/** An archive extracted and checked. */
export interface ExtractedArchive {
  /** The extraction folder (absolute): the archive's files, laid out exactly as in the archive. */
  readonly directory: string;
  /** Every file entry in central directory order, with its SHA-256 and size; folders are not listed. */
  readonly files: readonly PackageFile[];
  /** The bytes of the `keepInMemory` files the archive has. */
  readonly metadata: ReadonlyMap<string, Uint8Array>;
  /** Removes {@link ExtractedArchive.directory} and everything in it. Safe to call twice. */
  dispose(): Promise<void>;
}

async function measureEntries(file: ArchiveFile, entries: readonly InspectedEntry[], directoryOffset: number): Promise<EntryExtent[]> {
  const extents: EntryExtent[] = [];
  for (const entry of entries) extents.push(await readEntryExtent(file, entry, directoryOffset));
  return extents;
}

/**
 * The two-phase safe extraction both {@link extractArchive} and `extractPackage` run: check
 * everything that can be checked without writing, then stream each entry into a fresh folder,
 * removed again on any failure.
 */
export async function extractWithRules(archivePath: string, options: ExtractArchiveOptions, rules: ArchiveRules): Promise<ExtractedArchive> {
  const limits = resolvePackageLimits(options.limits);
  const file = await ArchiveFile.open(archivePath, limits);
  let directory: string | undefined;
  try {
    // Phase 1: read and check, writing nothing.
    const location = await locateCentralDirectory(file, limits);
    const records = await readCentralDirectory(file, location);
    const entries = inspectEntries(records, limits, rules);
    const extents = await measureEntries(file, entries, location.offset);
    checkEntryLayout(extents, location.offset);

    // Phase 2: extract into a private folder (mkdtemp creates it with mode 0700).
    directory = await mkdtemp(join(resolve(options.workDirectory), 'plugpkg-'));
    // Each entry's data is read from its checked extent and nowhere else.
    const written = await writeEntries(
      directory,
      extents,
      { isSmall: isSmallEntry, whole: (extent) => readWholeEntryData(file, extent), stream: (extent) => readEntryData(file, extent) },
      rules.metadataFiles,
    );
    const extractedDirectory = directory;
    return {
      directory: extractedDirectory,
      files: Object.freeze(written.files),
      metadata: written.metadata,
      dispose: () => rm(extractedDirectory, { recursive: true, force: true }),
    };
  } catch (error) {
    if (directory !== undefined) await rm(directory, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
    throw error;
  } finally {
    await file.close();
  }
}

/**
 * Extracts any zip archive (a modpack, a downloaded resource pack) with the same safety as a
 * plugin package: zip-slip, links, special files, encryption, collisions by case or Unicode
 * normalization, header mismatches, overlaps and zip bombs are refused before anything is
 * written, and sizes and CRCs are enforced while streaming. Only the plugin-package rules (a
 * root `manifest.json`, reserved root names) do not apply.
 *
 * @throws PluginHostError `UNSAFE_ENTRY_PATH`, `INVALID_PACKAGE` or `PACKAGE_TOO_LARGE`; file
 *   system errors unchanged.
 */
export function extractArchive(archivePath: string, options: ExtractArchiveOptions): Promise<ExtractedArchive> {
  return extractWithRules(archivePath, options, { metadataFiles: options.keepInMemory ?? [], pluginPackage: false });
}
