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

/** One id@version: the plugin's manifest id and an exact version. */
export interface VersionRef {
  readonly pluginId: string;
  readonly version: string;
}

/**
 * What one check-updates says a network runs (decisions section 12): the versions it listed as
 * installed, recorded for the UTC day under the network's hash of that day.
 */
export interface InstallRecord {
  /** `YYYY-MM-DD` (UTC). */
  readonly day: string;
  /** The network (IPv4 /24, IPv6 /48) as an HMAC under the day's salt: the same value its reports carry that day. */
  readonly network: string;
  readonly versions: readonly VersionRef[];
}

/**
 * The automatic pause's rule at one moment (decisions section 12): a version is paused when its
 * reporters since `since` are more than the largest of `threshold`, `basePercent` % of its
 * installed base (rounded up), and twice the reporters counted when an operator last lifted it.
 */
export interface PauseRule {
  /** Reporters whose latest report is at or after this time count: 24 hours back. */
  readonly since: string;
  /** `PLUGIN_ERROR_PAUSE_THRESHOLD`. */
  readonly threshold: number;
  /** The first UTC day (`YYYY-MM-DD`) of the 7 whose largest daily count of running networks is the installed base. */
  readonly baseFromDay: string;
  /** The share of the installed base, in percent, that the reporters must also exceed (2). */
  readonly basePercent: number;
}

/** An operator's lift of a version's pause (the latest one of that id@version). */
export interface PauseLift {
  readonly liftedAt: string;
  /** Who lifted it: `admin`, the holder of the registry's admin key. */
  readonly liftedBy: string;
  readonly reason: string;
  /** The reporters counted when it was lifted: the version pauses again above twice this. */
  readonly reporters: number;
}

/** What the pause knows of one version now. */
export interface PauseState {
  /** Distinct reporter networks in the window (each one listed the version the day it reported). */
  readonly reporters: number;
  /** The largest daily count of networks that listed the version, over the rule's 7 days. */
  readonly installedBase: number;
  readonly lift: PauseLift | null;
}

/** Input of `liftPause`: the lift and the audit log entry written with it, in one transaction. */
export interface NewPauseLift extends VersionRef, PauseLift {
  readonly versionId: string;
  /** The client address the operator's request came from (the audit log's "where"). */
  readonly actorAddress: string;
  /** The installed base and effective threshold at the lift, kept in the audit entry. */
  readonly installedBase: number;
  readonly pauseThreshold: number;
}

/** A version whose reporters are over the threshold (the admin view), with what decides its pause. */
export interface PausedVersion extends PauseState {
  readonly versionId: string;
  readonly pluginId: string;
  readonly slug: string;
  readonly version: string;
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
