import type { CatalogPlugin, CatalogVersion, PublishedPlugin, Review } from '../catalog/catalog-types.js';
import type { DownloadInfo, RegistryPlugin, RegistryPluginRecord, RegistryReview, RegistryVersionEntry, UpdateItem } from './registry-protocol.js';

/** The fields of a plugin record every view shows (absent category and icon left out). */
export function pluginRecordView(plugin: CatalogPlugin): RegistryPluginRecord {
  return {
    id: plugin.id,
    slug: plugin.slug,
    name: plugin.name,
    description: plugin.description,
    ...(plugin.category !== null ? { category: plugin.category } : {}),
    tags: [...plugin.tags],
    ...(plugin.iconUrl !== null ? { iconUrl: plugin.iconUrl } : {}),
    downloadsCount: plugin.downloadsCount,
    createdAt: plugin.createdAt,
  } satisfies RegistryPluginRecord;
}

/** The protocol's Plugin object of a published plugin. */
export function pluginView(plugin: PublishedPlugin): RegistryPlugin {
  return {
    ...pluginRecordView(plugin),
    latestVersion: plugin.latestVersion,
    ...(plugin.ratingAverage !== null ? { ratingAverage: plugin.ratingAverage } : {}),
    ratingCount: plugin.ratingCount,
  } satisfies RegistryPlugin;
}

/** A published version as a detail answer lists it. */
export function versionEntryView(version: CatalogVersion): RegistryVersionEntry {
  return {
    id: version.id,
    version: version.version,
    sha256: version.sha256,
    sizeBytes: version.sizeBytes,
    changelog: version.changelog,
    publishedAt: version.publishedAt ?? version.createdAt,
    minLauncherVersion: version.minLauncherVersion,
    permissions: [...version.permissions],
  } satisfies RegistryVersionEntry;
}

/** A review as clients see it (never the account id). */
export function reviewView(review: Review): RegistryReview {
  return {
    rating: review.rating,
    text: review.text,
    ...(review.authorName !== null ? { author: review.authorName } : {}),
    createdAt: review.createdAt,
    updatedAt: review.updatedAt,
  } satisfies RegistryReview;
}

/** Builds the Download info of versions for one request. */
export type DownloadInfoBuilder = (slug: string, version: CatalogVersion) => DownloadInfo;

/**
 * Download info whose `url` is this registry's package route for the exact version (never the
 * `latest` alias, so the bytes always match `sha256`). With mirrors configured, `mirrorUrl` is the
 * same path on the first mirror domain over https: a package mirror serves the primary's package
 * paths unchanged (decisions section 6: its host must be one of `mirrors`).
 */
export function downloadInfoBuilder(baseUrl: string, mirrors: readonly string[]): DownloadInfoBuilder {
  const mirror = mirrors[0];
  return (slug, version) => {
    const url = `${baseUrl}/plugins/${encodeURIComponent(slug)}/versions/${encodeURIComponent(version.version)}/package`;
    return {
      url,
      sha256: version.sha256,
      size: version.sizeBytes,
      ...(mirror !== undefined ? { mirrorUrl: `https://${mirror}${new URL(url).pathname}` } : {}),
    } satisfies DownloadInfo;
  };
}

/**
 * The update item of check-updates offering `version` to a launcher that has `currentVersion` of
 * `slug` (the rollout bucket is the launcher's to compute, so `rolloutPercent` is always there).
 */
export function updateItemView(slug: string, currentVersion: string, version: CatalogVersion, downloadInfo: DownloadInfoBuilder): UpdateItem {
  return {
    slug,
    currentVersion,
    latestVersion: version.version,
    rolloutPercent: version.rolloutPercent,
    changelog: version.changelog,
    publishedAt: version.publishedAt ?? version.createdAt,
    download: downloadInfo(slug, version),
  } satisfies UpdateItem;
}
