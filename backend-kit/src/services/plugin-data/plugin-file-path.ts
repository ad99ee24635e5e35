import { PACKAGE_PATH_PROBLEM_TEXT, PluginHostError, findPackagePathProblem } from '@plughost/host-sdk/core';

// Percent-encoded `.`, `/` and `\` have no business in a URL a browser builds from a relative
// reference (browsers never encode them); they only serve to hide `..` or a separator from a
// check that looks at the raw path. Refusing them outright is simpler than reasoning about them.
const ENCODED_DOT_OR_SEPARATOR = /%(?:2e|2f|5c)/i;

/**
 * Turns the raw (still percent-encoded) part of a request path after `/files/` into a package
 * path, or throws 400 `INVALID_ARGUMENT`.
 *
 * The router's own wildcard parameter is not used: it is decoded already and falls back to the
 * raw text when decoding fails, so a check on it could be looking at a different string than the
 * one another layer decodes. Here the raw path is decoded exactly once, and the result must pass
 * the package path rule every installed file passed ({@link findPackagePathProblem}): no `..` or
 * `.` segment, no empty segment, no backslash, no NUL or control character, not absolute.
 */
export function parsePluginFilePath(rawPath: string): string {
  if (ENCODED_DOT_OR_SEPARATOR.test(rawPath)) {
    throw new PluginHostError('INVALID_ARGUMENT', 'A plugin file path must not percent-encode ".", "/" or "\\"');
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    throw new PluginHostError('INVALID_ARGUMENT', 'The plugin file path has malformed percent-encoding');
  }
  const problem = findPackagePathProblem(decoded);
  if (problem !== null) {
    throw new PluginHostError('INVALID_ARGUMENT', `The plugin file path ${PACKAGE_PATH_PROBLEM_TEXT[problem]}`);
  }
  return decoded;
}

const BACKEND_FILES = new Set(['settings.json', 'cache.json']);
// writeFileAtomic's temporary files: `.<name>.<random>.tmp` beside the target.
const BACKEND_TEMPORARY_FILE = /^\.(?:settings|cache)\.json\..*\.tmp$/;

/**
 * True when `relativePath` (a package path, `/`-separated) names a file the backend writes into
 * the plugin folder: `settings.json`, `cache.json` and their temporary files, at the folder root.
 * Compared case-insensitively, because on Windows and macOS `SETTINGS.JSON` opens the same file.
 * Packages cannot ship these names (decisions section 2), so refusing them never hides a package file.
 */
export function isBackendWrittenFile(relativePath: string): boolean {
  const name = relativePath.toLowerCase();
  if (name.includes('/')) return false;
  return BACKEND_FILES.has(name) || BACKEND_TEMPORARY_FILE.test(name);
}
