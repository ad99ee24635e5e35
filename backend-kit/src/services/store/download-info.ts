import { PluginHostError } from '@plughost/host-sdk/core';

/** Where a store package's bytes are (the registry's Download info), checked. */
export interface StoreDownloadInfo {
  /** The primary source: an absolute http(s) URL. */
  readonly url: string;
  /** A mirror of the same bytes, used only when its host is one of the registry's `mirrors`. */
  readonly mirrorUrl?: string;
  /** Lower-case hex SHA-256 of the package. */
  readonly sha256: string;
  /** The package's size in bytes. */
  readonly size: number;
}

function garbage(problem: string): PluginHostError {
  return new PluginHostError('STORE_UNAVAILABLE', `The store answered unusable download info: ${problem}`);
}

function httpUrl(value: unknown, field: string): string {
  if (typeof value !== 'string') throw garbage(`${field} is not a string`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw garbage(`${field} is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw garbage(`${field} is not an http or https URL`);
  if (url.username !== '' || url.password !== '') throw garbage(`${field} carries credentials`);
  return url.href;
}

/**
 * Checks the Download info `{url, mirrorUrl?, sha256, size}` of a `.../download` answer: http(s)
 * URLs, a 64-digit hex SHA-256, and a size that is a positive whole number of bytes within the
 * package limit (so no download of a package the backend would refuse anyway is started).
 *
 * @throws PluginHostError `STORE_UNAVAILABLE` for a malformed answer, `PACKAGE_TOO_LARGE` when
 *   `size` exceeds `maxPackageBytes`.
 */
export function parseDownloadInfo(value: unknown, maxPackageBytes: number): StoreDownloadInfo {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw garbage('not a JSON object');
  const info = value as Record<string, unknown>;
  const url = httpUrl(info['url'], 'url');
  // Optional fields are omitted by the protocol; a `null` is read as absent too.
  const mirrorUrl = info['mirrorUrl'] === undefined || info['mirrorUrl'] === null ? undefined : httpUrl(info['mirrorUrl'], 'mirrorUrl');
  const sha256 = info['sha256'];
  if (typeof sha256 !== 'string' || !/^[0-9a-fA-F]{64}$/.test(sha256)) throw garbage('sha256 is not 64 hexadecimal digits');
  const size = info['size'];
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size <= 0) throw garbage('size is not a positive whole number of bytes');
  if (size > maxPackageBytes) {
    throw new PluginHostError('PACKAGE_TOO_LARGE', `Package too large: the store's package has ${size} bytes, more than maxPackageBytes (${maxPackageBytes})`, {
      limit: 'maxPackageBytes',
      maximum: maxPackageBytes,
    });
  }
  return { url, ...(mirrorUrl !== undefined ? { mirrorUrl } : {}), sha256: sha256.toLowerCase(), size };
}
