import { ErrorCode, PluginHostError } from '@plughost/host-sdk/core';

/**
 * Size and count limits the package reader enforces before it writes anything, so that an archive
 * cannot exhaust the disk, memory or time of the launcher (zip bombs, millions of entries,
 * gigantic names). Every limit is refused with `PACKAGE_TOO_LARGE` naming the limit.
 */
export interface PackageLimits {
  /** Largest archive file in bytes. Default 256 MiB. */
  maxPackageBytes: number;
  /** Most entries (files and folders) in the central directory. Default 10 000. */
  maxEntries: number;
  /** Longest entry name in bytes as stored (UTF-8). Default 512. */
  maxEntryNameBytes: number;
  /** Largest sum of the uncompressed sizes of all entries. Default 1 GiB. */
  maxTotalUncompressedBytes: number;
  /** Largest uncompressed size of one entry. Default 512 MiB. */
  maxEntryUncompressedBytes: number;
  /**
   * Largest ratio of uncompressed to compressed size of one entry. Default 100. Applies only to
   * entries larger than {@link PackageLimits.compressionRatioThresholdBytes}.
   */
  maxCompressionRatio: number;
  /**
   * Entries up to this uncompressed size are exempt from {@link PackageLimits.maxCompressionRatio}:
   * small, very repetitive files (JSON, SVG, source maps) legitimately compress beyond 100:1 and
   * cannot hurt. Default 1 MiB.
   */
  compressionRatioThresholdBytes: number;
  /**
   * Largest central directory in bytes. The reader holds the directory in memory, so this bounds
   * that memory independently of the archive size. Default 16 MiB (10 000 entries with 512-byte
   * names and generous extra fields need about 6 MiB).
   */
  maxCentralDirectoryBytes: number;
  /**
   * Largest root `manifest.json`, `signature.json` and `signature.cert.json`. Their bytes are
   * returned in memory, so they must be small. Default 1 MiB.
   */
  maxMetadataFileBytes: number;
}

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/** The limits used when `extractPackage` is given none; see each field for the reasoning. */
export const DEFAULT_PACKAGE_LIMITS: Readonly<PackageLimits> = Object.freeze({
  maxPackageBytes: 256 * MiB,
  maxEntries: 10_000,
  maxEntryNameBytes: 512,
  maxTotalUncompressedBytes: 1 * GiB,
  maxEntryUncompressedBytes: 512 * MiB,
  maxCompressionRatio: 100,
  compressionRatioThresholdBytes: 1 * MiB,
  maxCentralDirectoryBytes: 16 * MiB,
  maxMetadataFileBytes: 1 * MiB,
});

/** The name of one limit, as it appears in `PACKAGE_TOO_LARGE` messages and details. */
export type PackageLimitName = keyof PackageLimits;

/**
 * Merges `overrides` over {@link DEFAULT_PACKAGE_LIMITS}. Every limit must be a positive number
 * (an integer, except the ratio), so that a typo cannot silently switch a check off.
 *
 * @throws PluginHostError `INVALID_ARGUMENT` naming the first bad limit.
 */
export function resolvePackageLimits(overrides: Partial<PackageLimits> = {}): PackageLimits {
  const limits: PackageLimits = { ...DEFAULT_PACKAGE_LIMITS };
  for (const name of Object.keys(DEFAULT_PACKAGE_LIMITS) as PackageLimitName[]) {
    const value = overrides[name];
    if (value === undefined) continue;
    const valid = typeof value === 'number' && value > 0 && (name === 'maxCompressionRatio' ? Number.isFinite(value) : Number.isSafeInteger(value));
    if (!valid) {
      throw new PluginHostError(
        ErrorCode.INVALID_ARGUMENT,
        `Package limit ${name} must be a positive ${name === 'maxCompressionRatio' ? 'number' : 'integer'}`,
        { limit: name, value },
      );
    }
    limits[name] = value;
  }
  return limits;
}
