/**
 * The one rule for paths inside a plugin package, shared by manifest validation (`entry.*`,
 * `contributes.*` files), the package reader and the CLI. A safe path is relative, uses forward
 * slashes, and cannot name anything outside the folder it is resolved against on any platform.
 */

/** Why a package path was refused; `null` from {@link findPackagePathProblem} means it is safe. */
export type PackagePathProblem =
  | 'empty'
  | 'nul-byte'
  | 'control-character'
  | 'backslash'
  | 'absolute'
  | 'drive-letter'
  | 'empty-segment'
  | 'dot-segment'
  | 'traversal'
  | 'reserved-name'
  | 'reserved-character'
  | 'trailing-dot-or-space';

/** Human-readable explanations, used in error messages. */
export const PACKAGE_PATH_PROBLEM_TEXT: Readonly<Record<PackagePathProblem, string>> = {
  empty: 'is empty',
  'nul-byte': 'contains a NUL byte',
  'control-character': 'contains a control character',
  backslash: 'contains a backslash (package paths use forward slashes)',
  absolute: 'is absolute',
  'drive-letter': 'starts with a drive letter',
  'empty-segment': 'contains an empty segment (`//`)',
  'dot-segment': 'contains a `.` segment',
  traversal: 'contains a `..` segment',
  'reserved-name': 'uses a name Windows reserves for devices',
  'reserved-character': 'contains a character Windows forbids in file names (< > : " | ? *)',
  'trailing-dot-or-space': 'has a segment ending in a dot or space, which Windows silently drops',
};

// Windows maps these names (with any extension) to devices; a file named so cannot be written there.
const WINDOWS_DEVICE_NAME = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;
// `:` would write an NTFS alternate data stream (`a.txt:hidden`); the others are refused by Windows.
const WINDOWS_RESERVED_CHARACTER = /[<>:"|?*]/;

/**
 * Returns the first problem of `path` as a package path, or `null` when it is safe.
 *
 * @param path - A path as stored in the archive or written in the manifest.
 * @param options - `allowTrailingSlash` accepts one final `/`, which zip uses to mark folders.
 */
export function findPackagePathProblem(path: string, options: { allowTrailingSlash?: boolean } = {}): PackagePathProblem | null {
  if (path.length === 0) return 'empty';
  if (path.includes('\0')) return 'nul-byte';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point of this pattern
  if (/[\u0001-\u001f\u007f]/.test(path)) return 'control-character';
  if (path.includes('\\')) return 'backslash';
  if (path.startsWith('/')) return 'absolute';
  if (/^[a-zA-Z]:/.test(path)) return 'drive-letter';
  if (WINDOWS_RESERVED_CHARACTER.test(path)) return 'reserved-character';
  const body = options.allowTrailingSlash && path.endsWith('/') ? path.slice(0, -1) : path;
  if (body.length === 0) return 'empty';
  for (const segment of body.split('/')) {
    if (segment === '') return 'empty-segment';
    if (segment === '..') return 'traversal';
    if (segment === '.') return 'dot-segment';
    if (WINDOWS_DEVICE_NAME.test(segment)) return 'reserved-name';
    if (/[. ]$/.test(segment)) return 'trailing-dot-or-space';
  }
  return null;
}

/** True when `path` is a safe package path (see {@link findPackagePathProblem}). */
export function isSafePackagePath(path: string): boolean {
  return findPackagePathProblem(path) === null;
}

/**
 * The key under which two archive paths count as the same file on a case-insensitive,
 * normalizing file system (Windows, macOS): NFC-normalized and lower-cased.
 */
export function packagePathCollisionKey(path: string): string {
  return path.normalize('NFC').toLowerCase();
}
