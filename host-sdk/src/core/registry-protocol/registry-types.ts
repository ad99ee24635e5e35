/**
 * The JSON shapes of the open registry protocol (spec "Registry endpoints", decisions sections 6
 * and 8), declared once for every party: the registry server produces them, the local backend,
 * the store UI and `pluginctl` read them. camelCase, ISO 8601 times; optional fields are omitted
 * rather than `null`.
 */

/** The protocol version this SDK speaks. Clients compare the major part and accept 1 or higher. */
export const REGISTRY_API_VERSION = '1.0';

/** Capabilities a registry may declare in `GET /registry`. */
export const REGISTRY_CAPABILITIES = ['list', 'detail', 'download', 'check-updates', 'reviews', 'auth', 'stats'] as const;

/** One capability of {@link REGISTRY_CAPABILITIES}. */
export type RegistryCapability = (typeof REGISTRY_CAPABILITIES)[number];

/** `GET /registry`. */
export interface RegistryMetadata {
  readonly apiVersion: string;
  /** The API root clients use for later requests. */
  readonly baseUrl: string;
  /** Published plugins; clients rank sources by it. */
  readonly pluginCount: number;
  readonly capabilities: readonly RegistryCapability[];
  /**
   * The store's root public key (base64 of the raw 32 bytes) that certifies its developers' keys.
   * Optional: older registries do not publish it. A client pins it on first use, never trusts a
   * changed one silently.
   */
  readonly rootPublicKey?: string;
  /** Package mirror domains (`host` or `host:port`): download mirrors only, never API fallbacks. */
  readonly mirrors?: readonly string[];
}

/** What every view of a plugin record shows (the store's Plugin object, the owner's view). */
export interface RegistryPluginRecord {
  readonly id: string;
  readonly slug: string;
  readonly name: string;
  readonly description: string;
  readonly category?: string;
  readonly tags: readonly string[];
  readonly iconUrl?: string;
  readonly downloadsCount: number;
  readonly createdAt: string;
}

/** The Plugin object of lists and detail. */
export interface RegistryPlugin extends RegistryPluginRecord {
  readonly latestVersion?: string;
  /** 0 to 5, absent while nobody rated. */
  readonly ratingAverage?: number;
  readonly ratingCount: number;
}

/** One published version in a detail answer (decisions section 6). */
export interface RegistryVersionEntry {
  readonly id: string;
  readonly version: string;
  /** Lower-case hex SHA-256 of the package bytes. */
  readonly sha256: string;
  readonly sizeBytes: number;
  readonly changelog: string;
  readonly publishedAt: string;
  readonly minLauncherVersion: string;
  /** Permission ids the version's manifest asks for. */
  readonly permissions: readonly string[];
}

/** `GET /plugins/<slug>`: the plugin and its published versions. */
export interface RegistryPluginDetail extends RegistryPlugin {
  readonly versions: readonly RegistryVersionEntry[];
}

/** `GET /plugins`: one page of published plugins. */
export interface RegistryPluginList {
  readonly total: number;
  readonly page: number;
  readonly pageSize: number;
  readonly items: readonly RegistryPlugin[];
}

/** The `sort` values of `GET /plugins` (`downloads` is the default). */
export const REGISTRY_SORTS = ['downloads', 'rating', 'updated', 'name', 'newest'] as const;

/** One `sort` value of `GET /plugins`. */
export type RegistrySort = (typeof REGISTRY_SORTS)[number];

/** The query of `GET /plugins`; every field is optional (empty strings are left out). */
export interface RegistryListQuery {
  /** Substring of name, description, slug or a tag. */
  readonly q?: string;
  /** Exact category. */
  readonly category?: string;
  /** Every tag must be present. */
  readonly tags?: readonly string[];
  readonly sort?: RegistrySort;
  /** From 1. */
  readonly page?: number;
  /** 1 to 50, default 20. */
  readonly pageSize?: number;
  /** The launcher's version: only plugins whose latest version runs on it. */
  readonly minLauncherVersion?: string;
}

/** Where a package's bytes are (`GET /plugins/<slug>/versions/<version>/download`). */
export interface DownloadInfo {
  /** An absolute http(s) URL. */
  readonly url: string;
  /** The same bytes on a mirror, to be used only when its host is one of the registry's `mirrors`. */
  readonly mirrorUrl?: string;
  /** Lower-case hex SHA-256 of the package bytes. */
  readonly sha256: string;
  /** Bytes. */
  readonly size: number;
}

/** One installed plugin a launcher asks about in `POST /plugins/check-updates`. */
export interface InstalledPluginVersion {
  readonly slug: string;
  readonly version: string;
}

/** The body of `POST /plugins/check-updates`. */
export interface CheckUpdatesRequest {
  readonly launcherVersion: string;
  readonly installed: readonly InstalledPluginVersion[];
}

/** One entry of `POST /plugins/check-updates`'s `updates` (decisions section 6). */
export interface UpdateItem {
  readonly slug: string;
  readonly currentVersion: string;
  readonly latestVersion: string;
  /** 0 to 100; the launcher shows the update when its rollout bucket is below this. */
  readonly rolloutPercent: number;
  readonly changelog: string;
  readonly publishedAt: string;
  readonly download: DownloadInfo;
}

/** The answer of `POST /plugins/check-updates`. */
export interface CheckUpdatesResponse {
  readonly updates: readonly UpdateItem[];
}

/** One review in `GET /plugins/<slug>/reviews`. */
export interface RegistryReview {
  readonly rating: number;
  readonly text: string;
  /** The reviewer's display name, when the account gave one. */
  readonly author?: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** `GET /plugins/<slug>/reviews`. */
export interface RegistryReviewList {
  readonly total: number;
  readonly page: number;
  readonly pageSize: number;
  readonly ratingAverage?: number;
  readonly ratingCount: number;
  readonly items: readonly RegistryReview[];
}

/** `GET /plugins/<slug>/stats`. */
export interface RegistryPluginStats {
  readonly pluginId: string;
  readonly slug: string;
  /** Every download since the plugin was listed. */
  readonly downloadsCount: number;
  /** The last 30 UTC days, oldest first, today last; days without downloads are 0. */
  readonly downloadsPerDay: readonly { readonly date: string; readonly downloads: number }[];
}

/** The body of every registry error answer (decisions section 3); `code` is lower_snake. */
export interface RegistryErrorBody {
  readonly error: { readonly code: string; readonly message: string };
}

/** The registry route of the root-signed revocation list (`{issuedAt, revoked, signature}`, see `verifyRevocationList`). */
export const REVOCATION_LIST_PATH = 'developer/keys/revoked';

/** The version alias every download route accepts for the latest published version. */
export const LATEST_VERSION_ALIAS = 'latest';
