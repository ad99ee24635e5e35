/**
 * The exact bytes a package signature covers (decisions, section 5). The manifest is hashed as its
 * raw bytes, never re-serialized, so a whitespace change is a change; every other file enters
 * through its SHA-256, so signing needs no file contents.
 */
import { PluginHostError } from '../errors.js';
import { canonicalJson } from './canonical-json.js';
import { isLowercaseHex, utf8Encode } from './encoding.js';
import { sha256Hex } from './sha256.js';

/** An archive file entry as the package reader hashed it. */
export interface PackageFileDigest {
  /** The entry path exactly as stored in the archive (forward slashes). */
  readonly path: string;
  /** Lowercase hex SHA-256 of the entry's uncompressed bytes. */
  readonly sha256: string;
}

/** Root entries that the files list leaves out: the manifest enters by its own hash, and the
 * two signature files cannot cover themselves. */
export const SIGNATURE_EXCLUDED_PATHS: ReadonlySet<string> = new Set(['manifest.json', 'signature.json', 'signature.cert.json']);

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The sorted files list that a signature covers: every entry except the three root files in
 * {@link SIGNATURE_EXCLUDED_PATHS}, as `{path, sha256}`, sorted by path in UTF-16 code unit order.
 *
 * @throws PluginHostError `INVALID_PACKAGE` when two entries share a path; `INVALID_ARGUMENT` when
 *   a `sha256` is not 64 lowercase hex characters or a path is empty or names a folder.
 */
export function signedFilesList(files: readonly PackageFileDigest[]): PackageFileDigest[] {
  const seen = new Set<string>();
  const list: PackageFileDigest[] = [];
  for (const file of files) {
    if (typeof file.path !== 'string' || file.path === '' || file.path.endsWith('/')) {
      throw new PluginHostError('INVALID_ARGUMENT', `Not a file entry path: ${JSON.stringify(file.path)}`, {
        path: file.path,
      });
    }
    if (seen.has(file.path)) {
      throw new PluginHostError('INVALID_PACKAGE', `Duplicate archive entry: ${file.path}`, { path: file.path });
    }
    seen.add(file.path);
    if (typeof file.sha256 !== 'string' || !isLowercaseHex(file.sha256, 32)) {
      throw new PluginHostError('INVALID_ARGUMENT', `The sha256 of ${file.path} is not 64 lowercase hex characters`, {
        path: file.path,
      });
    }
    if (!SIGNATURE_EXCLUDED_PATHS.has(file.path)) list.push({ path: file.path, sha256: file.sha256 });
  }
  return list.sort((a, b) => compareCodeUnits(a.path, b.path));
}

/**
 * The canonical JSON text whose SHA-256 is the signed hash:
 * `{"files":[{"path":...,"sha256":...},...],"manifest":"<sha256 hex of the raw manifest bytes>"}`.
 * Useful to show or debug what a signature covers.
 *
 * @throws PluginHostError as {@link signedFilesList}.
 */
export function signedHashDocument(manifestBytes: Uint8Array, files: readonly PackageFileDigest[]): string {
  return canonicalJson({ manifest: sha256Hex(manifestBytes), files: signedFilesList(files) });
}

/**
 * The `signedHash` of a package: lowercase hex SHA-256 of the UTF-8 bytes of
 * {@link signedHashDocument}. The package signature is over the 32 raw bytes of this digest.
 *
 * @param manifestBytes - The raw bytes of `manifest.json`, exactly as stored.
 * @param files - Every file entry of the archive (the three excluded root files may be present).
 * @throws PluginHostError as {@link signedFilesList}.
 * @example
 * ```ts
 * const signedHash = computeSignedHash(manifestBytes, [{ path: 'dist/index.js', sha256 }]);
 * ```
 */
export function computeSignedHash(manifestBytes: Uint8Array, files: readonly PackageFileDigest[]): string {
  return sha256Hex(utf8Encode(signedHashDocument(manifestBytes, files)));
}
