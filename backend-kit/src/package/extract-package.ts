import { extractWithRules } from './extract-archive.js';
import { PLUGIN_PACKAGE_RULES } from './inspect-entries.js';
import type { PackageLimits } from './limits.js';
import type { PackageFile } from './write-entries.js';

/** Options of {@link extractPackage}. */
export interface ExtractPackageOptions {
  /**
   * An existing folder; the extraction folder is created inside it (`plugpkg-XXXXXX`). Use a
   * folder on the same file system as the install location so the installer can rename.
   */
  workDirectory: string;
  /** Overrides of {@link DEFAULT_PACKAGE_LIMITS}; omitted limits keep their default. */
  limits?: Partial<PackageLimits>;
}

/** A package extracted and checked, ready for manifest validation and signature verification. */
export interface ExtractedPackage {
  /** The extraction folder (absolute): the archive's files, laid out exactly as in the archive. */
  readonly directory: string;
  /** The raw bytes of the root `manifest.json` (not parsed, not validated). */
  readonly manifestBytes: Uint8Array;
  /**
   * Every file entry, in central directory order, including `manifest.json` and the signature
   * files; folders are not listed. Sort it yourself where an order is specified (signing).
   */
  readonly files: readonly PackageFile[];
  /** The raw bytes of the root `signature.json`, when the package has one. */
  readonly signatureJson?: Uint8Array;
  /** The raw bytes of the root `signature.cert.json`, when the package has one. */
  readonly certificateJson?: Uint8Array;
  /** Removes {@link ExtractedPackage.directory} and everything in it. Safe to call twice. */
  dispose(): Promise<void>;
}

/**
 * Reads a plugin package (any zip, whatever its extension) safely into a fresh folder under
 * `workDirectory`, hashing every file on the way.
 *
 * Everything that can be checked without extracting is checked before anything is written (not
 * even the extraction folder): the file size, the end records and entry count, every central
 * directory entry (path safety, type, encryption, method, limits, collisions, reserved root names,
 * the root manifest), every local header against the central directory, and that the entries
 * neither overlap nor leave unaccounted bytes. Extraction then streams one entry at a time and
 * stops at the first byte beyond a declared size, a short entry or a CRC mismatch. On any failure
 * the extraction folder is removed completely and the original error is rethrown.
 *
 * Manifest content and signatures are not checked here; the returned bytes and hashes are what
 * those checks take.
 *
 * @throws PluginHostError `UNSAFE_ENTRY_PATH`, `INVALID_PACKAGE` (exactly `Invalid plugin package`
 *   when there is no root `manifest.json`), `PACKAGE_TOO_LARGE` naming the limit, or
 *   `INVALID_ARGUMENT` for a bad limit. File system errors (missing archive, full disk) unchanged.
 *
 * @example
 * ```ts
 * const extracted = await extractPackage(uploadPath, { workDirectory: join(dataDir, 'tmp') });
 * try {
 *   const paths = new Set(extracted.files.map((file) => file.path));
 *   const { manifest } = readManifest(extracted.manifestBytes, { files: paths });
 *   const signer = assertSignedPackage(extracted, trust);
 *   // ... move extracted.directory into place
 * } finally {
 *   await extracted.dispose();
 * }
 * ```
 */
export async function extractPackage(archivePath: string, options: ExtractPackageOptions): Promise<ExtractedPackage> {
  const extracted = await extractWithRules(archivePath, options, PLUGIN_PACKAGE_RULES);
  const manifestBytes = extracted.metadata.get('manifest.json');
  if (!manifestBytes) {
    await extracted.dispose();
    throw new Error('manifest.json was inspected but not extracted');
  }
  const signatureJson = extracted.metadata.get('signature.json');
  const certificateJson = extracted.metadata.get('signature.cert.json');
  return {
    directory: extracted.directory,
    manifestBytes,
    files: extracted.files,
    ...(signatureJson ? { signatureJson } : {}),
    ...(certificateJson ? { certificateJson } : {}),
    dispose: extracted.dispose,
  };
}
