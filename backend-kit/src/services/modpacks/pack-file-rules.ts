/**
 * The rules every file of a resolved pack obeys, whatever its source: a safe relative path, http(s)
 * download URLs, well-formed digests, a bounded file count and no two files on the same path.
 * The installer relies on these having been checked (see `ModpackFile`).
 */
import { PACKAGE_PATH_PROBLEM_TEXT, PluginHostError, findPackagePathProblem, packagePathCollisionKey } from '@plughost/host-sdk/core';
import type { ModpackFile } from './modpack-plan.js';
import { quote, readString, sourceInvalid } from './source-fields.js';

/** Most files one pack may list; far above real packs, low enough to bound memory and work. */
export const MAX_PACK_FILES = 10_000;

/** Longest download URL accepted. */
export const MAX_URL_LENGTH = 2048;

/** Longest pack file path accepted (Windows paths break far earlier inside a game folder). */
export const MAX_PATH_LENGTH = 1024;

/** Hex digits per digest algorithm. */
const HEX_LENGTH = { sha1: 40, sha256: 64, sha512: 128 } as const;

/** A digest algorithm of `FileHashes`. */
export type HashAlgorithm = keyof typeof HEX_LENGTH;

function unsafePath(path: string, problem: string, where: string): PluginHostError {
  return new PluginHostError('UNSAFE_ENTRY_PATH', `${where} ${quote(path)} ${problem}`, { path, problem });
}

/**
 * A file or folder path relative to the game directory that passes the package path rule.
 *
 * @param options - `allowTrailingSlash` accepts (and drops) one final `/`, for folder names.
 * @throws PluginHostError `UNSAFE_ENTRY_PATH` naming the path, or `MODPACK_SOURCE_INVALID` for a non-string.
 */
export function readPackPath(value: unknown, where: string, options: { allowTrailingSlash?: boolean } = {}): string {
  const path = readString(value, where, MAX_PATH_LENGTH);
  const problem = findPackagePathProblem(path, options);
  if (problem !== null) throw unsafePath(path, PACKAGE_PATH_PROBLEM_TEXT[problem], where);
  return options.allowTrailingSlash && path.endsWith('/') ? path.slice(0, -1) : path;
}

/** A file name that is one safe path segment (APIs name files; the folder is ours to choose). */
export function readFileName(value: unknown, where: string): string {
  const name = readPackPath(value, where);
  if (name.includes('/')) throw unsafePath(name, 'is not a single file name (contains `/`)', where);
  return name;
}

/**
 * An absolute http(s) URL without credentials, at most {@link MAX_URL_LENGTH} characters,
 * returned in its parsed (normalized) form. Whether its host is public is the fetcher's check.
 */
export function readDownloadUrl(value: unknown, where: string): string {
  const text = readString(value, where, MAX_URL_LENGTH);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw sourceInvalid(`${where} ${quote(text)} is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw sourceInvalid(`${where} ${quote(text)} is not an http or https URL`);
  if (url.username !== '' || url.password !== '') throw sourceInvalid(`${where} must not carry credentials`);
  // Normalizing percent-encodes spaces, so the length is checked again on what is returned.
  if (url.href.length > MAX_URL_LENGTH) throw sourceInvalid(`${where} is longer than ${MAX_URL_LENGTH} characters`, { limit: MAX_URL_LENGTH });
  return url.href;
}

/** A hex digest of the algorithm's length, in either case, returned lowercase. */
export function readHash(value: unknown, algorithm: HashAlgorithm, where: string): string {
  const length = HEX_LENGTH[algorithm];
  if (typeof value !== 'string' || value.length !== length || !/^[0-9a-fA-F]+$/.test(value)) {
    throw sourceInvalid(`${where} must be a ${algorithm} digest (${length} hex digits)`);
  }
  return value.toLowerCase();
}

/**
 * Refuses two files on the same path as a case-insensitive file system sees it, and a file whose
 * path is a folder of another file (`mods` and `mods/a.jar`): either would make the install
 * overwrite or fail half-way.
 *
 * @throws PluginHostError `MODPACK_SOURCE_INVALID` naming the path.
 */
export function checkPackFilePaths(files: readonly Pick<ModpackFile, 'path'>[], source: string): void {
  if (files.length > MAX_PACK_FILES)
    throw sourceInvalid(`${source} lists ${files.length} files; at most ${MAX_PACK_FILES} are allowed`, { limit: MAX_PACK_FILES });
  const seen = new Map<string, string>();
  for (const { path } of files) {
    const key = packagePathCollisionKey(path);
    const earlier = seen.get(key);
    if (earlier !== undefined) throw sourceInvalid(`${source} lists ${quote(path)} twice${earlier === path ? '' : ` (as ${quote(earlier)})`}`, { path });
    seen.set(key, path);
  }
  for (const [key, path] of seen) {
    for (let slash = key.indexOf('/'); slash !== -1; slash = key.indexOf('/', slash + 1)) {
      const folder = seen.get(key.slice(0, slash));
      if (folder !== undefined) throw sourceInvalid(`${source} lists ${quote(folder)} as a file and as the folder of ${quote(path)}`, { path });
    }
  }
}
