/**
 * Safe reading of `.plugpkg` plugin packages: limits, zip structure checks, zip-slip protection
 * and streaming extraction with hashes. Manifest validation and signature verification live in
 * `@plughost/host-sdk/core` and take what {@link extractPackage} returns.
 *
 * @packageDocumentation
 */
export { extractPackage } from './extract-package.js';
export { extractArchive } from './extract-archive.js';
export type { ExtractArchiveOptions, ExtractedArchive } from './extract-archive.js';
export type { ExtractPackageOptions, ExtractedPackage } from './extract-package.js';
export { DEFAULT_PACKAGE_LIMITS, resolvePackageLimits } from './limits.js';
export type { PackageLimitName, PackageLimits } from './limits.js';
export type { PackageFile } from './write-entries.js';
export { openPluginPackage } from './open-plugin-package.js';
export { writeZip } from './zip-writer.js';
export type { ZipEntry } from './zip-writer.js';
export type {
  OpenPluginPackageOptions,
  OpenedPluginPackage,
  PackageSignatureStatus,
  SignaturePolicy,
} from './open-plugin-package.js';
