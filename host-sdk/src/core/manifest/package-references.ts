/**
 * Fields that point at files of the package (`entry.*`, `contributes.*` paths, icons, font links).
 * Every path must pass the package path rule, and when the package's file list is known, name a
 * file in it.
 */
import { PACKAGE_PATH_PROBLEM_TEXT, findPackagePathProblem } from '../package-path.js';
import type { FieldReader } from './field-reader.js';
import type { ProblemReport } from './manifest-problem.js';

/** The package's file list, when known: archive paths with forward slashes. */
export type PackageFiles = ReadonlySet<string> | undefined;

/** Checks one package path; true when it is safe (and present, when `files` is known). */
export function checkPackagePath(report: ProblemReport, path: string, value: string, files: PackageFiles): boolean {
  const problem = findPackagePathProblem(value);
  if (problem !== null) {
    report.error(path, `must be a safe package path, but "${value}" ${PACKAGE_PATH_PROBLEM_TEXT[problem]}`);
    return false;
  }
  if (files !== undefined && !files.has(value)) {
    report.error(path, `names "${value}", which is not in the package`);
    return false;
  }
  return true;
}

/** Reads a string field that must be a package path. */
export function readPackagePath(reader: FieldReader, key: string, files: PackageFiles, options: { readonly required?: boolean } = {}): string | undefined {
  const value = reader.string(key, options);
  if (value === undefined) return undefined;
  return checkPackagePath(reader.report, reader.pathOf(key), value, files) ? value : undefined;
}

const URL_SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;
const IMAGE_FILE = /\.(?:png|apng|svg|jpe?g|gif|webp|avif|ico|bmp)$/i;

/**
 * Reads an icon: an icon-font class string (`ri-server-line`, `fa-solid fa-gear`), an `https:` or
 * `data:image/` URL, or a package path of an image (recognised by its extension). Other URL
 * schemes are refused: `javascript:` or `file:` in an image source is never wanted.
 */
export function readIcon(reader: FieldReader, key: string, files: PackageFiles): string | undefined {
  const value = reader.string(key);
  if (value === undefined) return undefined;
  const path = reader.pathOf(key);
  const scheme = URL_SCHEME.exec(value)?.[1]?.toLowerCase();
  if (scheme !== undefined) {
    if (scheme === 'https' || (scheme === 'data' && /^data:image\//i.test(value))) return value;
    reader.report.error(path, `must be an icon class, a package path or an https: or data:image/ URL (got a "${scheme}:" URL)`);
    return undefined;
  }
  if (IMAGE_FILE.test(value) || value.includes('/')) {
    return checkPackagePath(reader.report, path, value, files) ? value : undefined;
  }
  return value;
}

/**
 * Checks a font link: a package path of a stylesheet or an `https:` URL. An external URL is
 * accepted with a warning, because release builds block external stylesheet links (`style-src`).
 */
export function checkFontLink(report: ProblemReport, path: string, value: string, files: PackageFiles): boolean {
  const scheme = URL_SCHEME.exec(value)?.[1]?.toLowerCase();
  if (scheme === undefined) return checkPackagePath(report, path, value, files);
  if (scheme !== 'https' || !/^https:\/\/[^\s/?#@]+(?:[/?#]\S*)?$/i.test(value)) {
    report.error(path, `must be a package path or an https: URL (got "${value}")`);
    return false;
  }
  report.warn(path, 'is an external stylesheet, which release builds block; ship the CSS in the package');
  return true;
}
