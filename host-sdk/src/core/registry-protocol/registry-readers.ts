/**
 * Readers of registry answers. A registry is another party (a mirror, a private store), so its
 * JSON is checked field by field before anything uses it. Lists and details are read leniently,
 * as a catalogue is shown: an item without the fields a card needs is left out and optional fields
 * of the wrong type are dropped. What an install acts on (Download info, update items) is read
 * strictly: one wrong field refuses it.
 */
import { isStrictSemver } from '../manifest/index.js';
import {
  REGISTRY_CAPABILITIES,
  type DownloadInfo,
  type RegistryCapability,
  type RegistryMetadata,
  type RegistryPlugin,
  type RegistryPluginDetail,
  type RegistryVersionEntry,
  type UpdateItem,
} from './registry-types.js';

type Json = Readonly<Record<string, unknown>>;

/** True for a JSON object (not an array, not `null`). */
export function isJsonObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** A count field of a list answer (`total`, `page`, `pageSize`): a finite number from 0, else 0. */
export function readCount(value: unknown): number {
  return count(value);
}

/** A Registry Plugin object from untrusted JSON, or `null` when it lacks an id, slug or name. */
export function readRegistryPlugin(value: unknown): RegistryPlugin | null {
  if (!isJsonObject(value)) return null;
  const id = text(value.id);
  const slug = text(value.slug);
  const name = text(value.name);
  if (!id || !slug || name === undefined) return null;
  const category = text(value.category);
  const iconUrl = text(value.iconUrl);
  const latestVersion = text(value.latestVersion);
  const rating = value.ratingAverage;
  return {
    id,
    slug,
    name,
    description: text(value.description) ?? '',
    ...(category ? { category } : {}),
    tags: stringList(value.tags),
    ...(iconUrl ? { iconUrl } : {}),
    ...(latestVersion ? { latestVersion } : {}),
    downloadsCount: count(value.downloadsCount),
    ...(typeof rating === 'number' && Number.isFinite(rating) ? { ratingAverage: Math.min(5, Math.max(0, rating)) } : {}),
    ratingCount: count(value.ratingCount),
    createdAt: text(value.createdAt) ?? '',
  };
}

/** A version entry of a detail answer, or `null` when it has no version. */
export function readRegistryVersionEntry(value: unknown): RegistryVersionEntry | null {
  if (!isJsonObject(value)) return null;
  const version = text(value.version);
  if (!version) return null;
  return {
    id: text(value.id) ?? version,
    version,
    sha256: text(value.sha256) ?? '',
    sizeBytes: count(value.sizeBytes),
    changelog: text(value.changelog) ?? '',
    publishedAt: text(value.publishedAt) ?? '',
    minLauncherVersion: text(value.minLauncherVersion) ?? '',
    permissions: stringList(value.permissions),
  };
}

/** The answer of `GET /plugins/<slug>` from untrusted JSON (versions in the order sent), or `null`. */
export function readRegistryPluginDetail(value: unknown): RegistryPluginDetail | null {
  const plugin = readRegistryPlugin(value);
  if (!plugin || !isJsonObject(value)) return null;
  const versions = Array.isArray(value.versions)
    ? value.versions.map(readRegistryVersionEntry).filter((entry): entry is RegistryVersionEntry => entry !== null)
    : [];
  return { ...plugin, versions };
}

/**
 * `GET /registry` from untrusted JSON, or `null` without a string `apiVersion` and `baseUrl`.
 * Capabilities this SDK does not know are left out (it cannot use them); `mirrors` entries that
 * are not strings are ignored.
 */
export function readRegistryMetadata(value: unknown): RegistryMetadata | null {
  if (!isJsonObject(value)) return null;
  const apiVersion = text(value.apiVersion);
  const baseUrl = text(value.baseUrl);
  if (!apiVersion || baseUrl === undefined) return null;
  const capabilities = stringList(value.capabilities).filter((entry): entry is RegistryCapability =>
    (REGISTRY_CAPABILITIES as readonly string[]).includes(entry),
  );
  const mirrors = value.mirrors;
  const rootPublicKey = text(value.rootPublicKey);
  return {
    apiVersion,
    baseUrl,
    pluginCount: count(value.pluginCount),
    capabilities,
    ...(rootPublicKey ? { rootPublicKey } : {}),
    ...(Array.isArray(mirrors) ? { mirrors: stringList(mirrors) } : {}),
  };
}

/**
 * The specification's usability rule of a source: `apiVersion` major 1 or higher, and the
 * capabilities `list`, `detail` and `download`.
 */
export function isUsableRegistry(metadata: RegistryMetadata): boolean {
  const major = /^(\d+)(?:\.|$)/.exec(metadata.apiVersion);
  if (!major || Number(major[1]) < 1) return false;
  return (['list', 'detail', 'download'] as const).every((capability) => metadata.capabilities.includes(capability));
}

function httpUrlProblem(value: unknown, field: string): string | null {
  if (typeof value !== 'string') return `${field} is not a string`;
  // The core has no URL parser (no DOM, no node): the scheme, an authority without credentials.
  const match = /^(https?):\/\/([^/?#]*)/i.exec(value);
  if (!match) return /^[a-z][a-z0-9+.-]*:/i.test(value) ? `${field} is not an http or https URL` : `${field} is not an absolute URL`;
  const authority = match[2] ?? '';
  if (authority.includes('@')) return `${field} carries credentials`;
  if (authority === '' || /[\s\\]/.test(value)) return `${field} is not an absolute URL`;
  return null;
}

/**
 * Why `value` is not usable Download info `{url, mirrorUrl?, sha256, size}`, or `null`: http(s)
 * URLs without credentials (a `null` `mirrorUrl` counts as absent), a 64-digit hex SHA-256, and a
 * size that is a positive whole number of bytes.
 */
export function findDownloadInfoProblem(value: unknown): string | null {
  if (!isJsonObject(value)) return 'not a JSON object';
  const urlProblem = httpUrlProblem(value.url, 'url');
  if (urlProblem) return urlProblem;
  const mirrorUrl = value.mirrorUrl;
  if (mirrorUrl !== undefined && mirrorUrl !== null) {
    const mirrorProblem = httpUrlProblem(mirrorUrl, 'mirrorUrl');
    if (mirrorProblem) return mirrorProblem;
  }
  const sha256 = value.sha256;
  if (typeof sha256 !== 'string' || !/^[0-9a-fA-F]{64}$/.test(sha256)) return 'sha256 is not 64 hexadecimal digits';
  const size = value.size;
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size <= 0) return 'size is not a positive whole number of bytes';
  return null;
}

/**
 * Download info from untrusted JSON (see {@link findDownloadInfoProblem}), the SHA-256 in lower
 * case, or `null` when it is not usable.
 */
export function readDownloadInfo(value: unknown): DownloadInfo | null {
  if (findDownloadInfoProblem(value) !== null || !isJsonObject(value)) return null;
  const mirrorUrl = value.mirrorUrl;
  return {
    url: value.url as string,
    ...(typeof mirrorUrl === 'string' ? { mirrorUrl } : {}),
    sha256: (value.sha256 as string).toLowerCase(),
    size: value.size as number,
  };
}

/**
 * One check-updates item from untrusted JSON, or `null` when it is not usable: a slug, strict
 * semver `currentVersion` and `latestVersion`, and usable `download`. An absent `rolloutPercent`
 * means everyone (100, the specification's rule); one outside 0 to 100 refuses the item.
 */
export function readUpdateItem(value: unknown): UpdateItem | null {
  if (!isJsonObject(value)) return null;
  const slug = text(value.slug);
  const currentVersion = value.currentVersion;
  const latestVersion = value.latestVersion;
  if (!slug || !isStrictSemver(currentVersion) || !isStrictSemver(latestVersion)) return null;
  const rollout = value.rolloutPercent ?? 100;
  if (typeof rollout !== 'number' || !Number.isFinite(rollout) || rollout < 0 || rollout > 100) return null;
  const download = readDownloadInfo(value.download);
  if (!download) return null;
  return {
    slug,
    currentVersion,
    latestVersion,
    rolloutPercent: rollout,
    changelog: text(value.changelog) ?? '',
    publishedAt: text(value.publishedAt) ?? '',
    download,
  };
}
