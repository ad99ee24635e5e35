/** Shapes the catalog stores and returns. Times are ISO 8601 strings (UTC, milliseconds). */
import { REGISTRY_SORTS } from '@plughost/host-sdk/core';

/** Review-queue states of a version (decisions section 6). Only `published` versions are visible to clients. */
export const VERSION_STATUSES = ['pending_review', 'published', 'rejected'] as const;

/** One of {@link VERSION_STATUSES}. */
export type VersionStatus = (typeof VERSION_STATUSES)[number];

/** Sort orders of `GET /plugins` (the protocol's, declared in the host SDK's core). */
export const PLUGIN_SORTS = REGISTRY_SORTS;

/** One of {@link PLUGIN_SORTS}. */
export type PluginSort = (typeof PLUGIN_SORTS)[number];

/** The telemetry error types (spec "Telemetry report"). */
export const PLUGIN_ERROR_TYPES = ['launch_crash', 'plugin_load_failed', 'plugin_runtime_error'] as const;

/** One of {@link PLUGIN_ERROR_TYPES}. */
export type ReportedErrorType = (typeof PLUGIN_ERROR_TYPES)[number];

/** A plugin record, whatever the state of its versions. */
export interface CatalogPlugin {
  /** The manifest `id` (reverse-domain). */
  readonly id: string;
  /** The store's URL name of the plugin (unique; see `SLUG_PATTERN`). */
  readonly slug: string;
  /** The account that first published the id (the auth module's account id). */
  readonly ownerAccountId: string;
  readonly name: string;
  readonly description: string;
  readonly category: string | null;
  /** Lower case, without duplicates. */
  readonly tags: readonly string[];
  readonly iconUrl: string | null;
  readonly createdAt: string;
  /** Package downloads of every version, counted by the package route. */
  readonly downloadsCount: number;
}

/** A plugin with at least one published version, as clients see it. */
export interface PublishedPlugin extends CatalogPlugin {
  /** The latest published version (see `SqliteCatalogRepository` for what "latest" means). */
  readonly latestVersion: string;
  /** `publishedAt` of the latest version. */
  readonly updatedAt: string;
  /** Mean review rating, `null` without reviews. */
  readonly ratingAverage: number | null;
  readonly ratingCount: number;
}

/** One uploaded version of a plugin. */
export interface CatalogVersion {
  /** Opaque id (a UUID). */
  readonly id: string;
  readonly pluginId: string;
  /** Strict semver. */
  readonly version: string;
  /** Lower-case hex SHA-256 of the package bytes (the blob store's key). */
  readonly sha256: string;
  readonly sizeBytes: number;
  readonly changelog: string;
  /** When the version became `published`; `null` while it never was. */
  readonly publishedAt: string | null;
  /** The manifest's `minLauncherVersion`. */
  readonly minLauncherVersion: string;
  /** The manifest's permission ids. */
  readonly permissions: readonly string[];
  /** The manifest's layers (`l1`, `l2`, `l3`). */
  readonly layers: readonly string[];
  readonly status: VersionStatus;
  /** 0 to 100: the share of launchers that are offered this version as an update. */
  readonly rolloutPercent: number;
  /** Key id of the developer key that signed the package. */
  readonly signerKeyId: string | null;
  readonly createdAt: string;
  /** The reviewer's note on a rejection (or approval). */
  readonly reviewNote: string | null;
}

/** A version waiting for review, with what a reviewer needs to see beside it. */
export interface PendingVersion extends CatalogVersion {
  readonly slug: string;
  readonly pluginName: string;
  readonly ownerAccountId: string;
}

/** Input of `createPlugin`. */
export interface NewPlugin {
  readonly id: string;
  readonly slug: string;
  readonly ownerAccountId: string;
  readonly name: string;
  readonly description?: string;
  readonly category?: string | null;
  readonly tags?: readonly string[];
  readonly iconUrl?: string | null;
  readonly createdAt: string;
}

/** Input of `updatePlugin`: only the fields given change. */
export interface PluginChanges {
  readonly name?: string;
  readonly description?: string;
  readonly category?: string | null;
  readonly tags?: readonly string[];
  readonly iconUrl?: string | null;
}

/** Input of `addVersion`. */
export interface NewVersion {
  readonly pluginId: string;
  readonly version: string;
  readonly sha256: string;
  readonly sizeBytes: number;
  readonly changelog?: string;
  readonly minLauncherVersion: string;
  readonly permissions?: readonly string[];
  readonly layers?: readonly string[];
  readonly status: VersionStatus;
  /** Default 100. */
  readonly rolloutPercent?: number;
  readonly signerKeyId?: string | null;
  /** Upload time; also `publishedAt` when `status` is `published`. */
  readonly createdAt: string;
}

/** Query of `listPublished`. */
export interface PluginListQuery {
  /** Substring of the name, description, slug or a tag (case-insensitive for ASCII). */
  readonly q?: string;
  /** Exact category (case-insensitive for ASCII). */
  readonly category?: string;
  /** Every one of these tags (lower case). */
  readonly tags?: readonly string[];
  /** Default `downloads`. */
  readonly sort?: PluginSort;
  /** From 1. */
  readonly page: number;
  readonly pageSize: number;
  /** Only plugins whose latest version's `minLauncherVersion` is at most this version. */
  readonly minLauncherVersion?: string;
}

/** One page of published plugins. */
export interface PluginListPage {
  readonly total: number;
  readonly items: readonly PublishedPlugin[];
}

/**
 * A telemetry report as stored. Only reports naming a known published version are stored, under
 * the plugin's manifest id (a report naming the slug included).
 */
export interface ErrorReport {
  /** The plugin's manifest id. */
  readonly pluginId: string;
  readonly pluginVersion: string;
  readonly errorType: ReportedErrorType;
  readonly launcherVersion: string;
  readonly receivedAt: string;
  /**
   * The reporter network (IPv4 /24, IPv6 /48) as an HMAC under the salt of the UTC day received;
   * never the address or the network itself.
   */
  readonly reporter: string;
  /**
   * The same network under the previous day's salt, while that salt is kept. The network's earlier
   * reports of this version still in the pause window take on `reporter`, so a network reporting
   * on both sides of UTC midnight is still one reporter.
   */
  readonly previousReporter?: string;
}

/** The salts of reporter hashes: today's (created when missing) and the previous UTC day's, if kept. */
export interface ReporterSalts {
  readonly current: Uint8Array;
  readonly previous: Uint8Array | null;
}

/** A version whose reporter count is over the pause threshold (the admin view). */
export interface PausedVersion {
  readonly pluginId: string;
  readonly slug: string;
  readonly version: string;
  /** Distinct reporter networks in the window. */
  readonly reporters: number;
  /** Reports in the window. */
  readonly reports: number;
  readonly lastReportAt: string;
}

/** Downloads of one UTC day. */
export interface DailyDownloads {
  /** `YYYY-MM-DD` (UTC). */
  readonly day: string;
  readonly downloads: number;
}

/** Download statistics of a plugin. */
export interface PluginStats {
  readonly pluginId: string;
  readonly slug: string;
  readonly downloadsCount: number;
  /** Days from `fromDay` on that had downloads, oldest first (days without downloads are absent). */
  readonly daily: readonly DailyDownloads[];
}

/** A review of a plugin; one per account and plugin. */
export interface Review {
  readonly pluginId: string;
  readonly accountId: string;
  /** Shown beside the review when the account gave one. */
  readonly authorName: string | null;
  /** 1 to 5. */
  readonly rating: number;
  readonly text: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** Input of `addReview`. */
export interface NewReview {
  readonly pluginId: string;
  readonly accountId: string;
  readonly authorName?: string | null;
  readonly rating: number;
  readonly text: string;
  readonly createdAt: string;
}

/** One page of reviews and the plugin's rating aggregate. */
export interface ReviewPage {
  readonly total: number;
  readonly ratingAverage: number | null;
  readonly ratingCount: number;
  /** Newest first. */
  readonly items: readonly Review[];
}
