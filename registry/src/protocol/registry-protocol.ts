/**
 * The JSON shapes of the open registry protocol (spec "Registry endpoints", decisions section 6),
 * as every mirror must answer them. camelCase, ISO 8601 times; optional fields are omitted rather
 * than `null`.
 */

/** The protocol version this server speaks. Clients compare the major part and accept 1 or higher. */
export const REGISTRY_API_VERSION = '1.0';

/** Capabilities a registry may declare in `GET /registry`. */
export type RegistryCapability = 'list' | 'detail' | 'download' | 'check-updates' | 'reviews' | 'auth' | 'stats';

/** `GET /registry`. */
export interface RegistryMetadata {
  apiVersion: string;
  baseUrl: string;
  pluginCount: number;
  capabilities: RegistryCapability[];
  mirrors?: string[];
}

/** What every view of a plugin record shows (the store's Plugin object, the owner's view). */
export interface RegistryPluginRecord {
  id: string;
  slug: string;
  name: string;
  description: string;
  category?: string;
  tags: string[];
  iconUrl?: string;
  downloadsCount: number;
  createdAt: string;
}

/** The Plugin object of lists and detail. */
export interface RegistryPlugin extends RegistryPluginRecord {
  latestVersion?: string;
  ratingAverage?: number;
  ratingCount: number;
}

/** One published version in a detail answer. */
export interface RegistryVersionEntry {
  id: string;
  version: string;
  sha256: string;
  sizeBytes: number;
  changelog: string;
  publishedAt: string;
  minLauncherVersion: string;
  permissions: string[];
}

/** `GET /plugins/<slug>`. */
export interface RegistryPluginDetail extends RegistryPlugin {
  versions: RegistryVersionEntry[];
}

/** `GET /plugins`. */
export interface RegistryPluginList {
  total: number;
  page: number;
  pageSize: number;
  items: RegistryPlugin[];
}

/** Where a package's bytes are (`GET .../download`). */
export interface DownloadInfo {
  url: string;
  mirrorUrl?: string;
  /** Lower-case hex SHA-256 of the package bytes. */
  sha256: string;
  /** Bytes. */
  size: number;
}

/** One entry of `POST /plugins/check-updates`'s `updates`. */
export interface UpdateItem {
  slug: string;
  currentVersion: string;
  latestVersion: string;
  /** 0 to 100; the launcher shows the update when its rollout bucket is below this. */
  rolloutPercent: number;
  changelog: string;
  publishedAt: string;
  download: DownloadInfo;
}

/** One review in `GET /plugins/<slug>/reviews`. */
export interface RegistryReview {
  rating: number;
  text: string;
  /** The reviewer's display name, when the account gave one. */
  author?: string;
  createdAt: string;
  updatedAt: string;
}

/** `GET /plugins/<slug>/reviews`. */
export interface RegistryReviewList {
  total: number;
  page: number;
  pageSize: number;
  ratingAverage?: number;
  ratingCount: number;
  items: RegistryReview[];
}

/** `GET /plugins/<slug>/stats`. */
export interface RegistryPluginStats {
  pluginId: string;
  slug: string;
  /** Every download since the plugin was listed. */
  downloadsCount: number;
  /** The last 30 UTC days, oldest first, today last; days without downloads are 0. */
  downloadsPerDay: { date: string; downloads: number }[];
}
