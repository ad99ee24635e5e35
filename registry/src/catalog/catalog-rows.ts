/**
 * Row shapes of the catalog's tables and their conversion to the catalog's types, the same for both
 * stores: SQLite keeps JSON lists as TEXT, PostgreSQL as `jsonb` (read back as arrays).
 */
import type { CatalogPlugin, CatalogVersion, PendingVersion, PublishedPlugin, Review, VersionStatus } from './catalog-types.js';

export interface PluginRow {
  id: string;
  slug: string;
  owner_account_id: string;
  name: string;
  description: string;
  category: string | null;
  tags: JsonList;
  icon_url: string | null;
  created_at: string;
  downloads_count: number;
}

export interface PublishedPluginRow extends PluginRow {
  latest_version: string;
  updated_at: string;
  latest_min_key: string;
  rating_count: number;
  rating_average: number | null;
}

export interface VersionRow {
  id: string;
  plugin_id: string;
  version: string;
  sha256: string;
  size_bytes: number;
  changelog: string;
  published_at: string | null;
  min_launcher_version: string;
  permissions: JsonList;
  layers: JsonList;
  status: VersionStatus;
  rollout_percent: number;
  signer_key_id: string | null;
  created_at: string;
  review_note: string | null;
}

export interface PendingVersionRow extends VersionRow {
  slug: string;
  plugin_name: string;
  owner_account_id: string;
}

export interface ReviewRow {
  plugin_id: string;
  account_id: string;
  author_name: string | null;
  rating: number;
  text: string;
  created_at: string;
  updated_at: string;
}

/** A JSON list of strings: TEXT holding JSON (SQLite) or a `jsonb` array (PostgreSQL). */
export type JsonList = string | readonly unknown[];

/** The columns of `plugin_versions` the catalog returns, with the table alias `v`. */
export const VERSION_COLUMNS = `v.id, v.plugin_id, v.version, v.sha256, v.size_bytes, v.changelog, v.published_at,
  v.min_launcher_version, v.permissions, v.layers, v.status, v.rollout_percent, v.signer_key_id, v.created_at, v.review_note`;

/** The columns of `plugins` the catalog returns, with the table alias `p`. */
export const PLUGIN_COLUMNS = `p.id, p.slug, p.owner_account_id, p.name, p.description, p.category, p.tags, p.icon_url,
  p.created_at, p.downloads_count`;

/** The strings of a stored JSON list (an unreadable value reads as empty). */
export function stringList(stored: JsonList): string[] {
  let value: unknown = stored;
  if (typeof stored === 'string') {
    try {
      value = JSON.parse(stored);
    } catch {
      return [];
    }
  }
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

export function pluginOf(row: PluginRow): CatalogPlugin {
  return {
    id: row.id,
    slug: row.slug,
    ownerAccountId: row.owner_account_id,
    name: row.name,
    description: row.description,
    category: row.category,
    tags: stringList(row.tags),
    iconUrl: row.icon_url,
    createdAt: row.created_at,
    downloadsCount: row.downloads_count,
  };
}

/** Averages are rounded to two decimals: enough for stars, and stable in ETags. */
export function publishedPluginOf(row: PublishedPluginRow): PublishedPlugin {
  return {
    ...pluginOf(row),
    latestVersion: row.latest_version,
    updatedAt: row.updated_at,
    ratingAverage: row.rating_average === null ? null : Math.round(row.rating_average * 100) / 100,
    ratingCount: row.rating_count,
  };
}

export function versionOf(row: VersionRow): CatalogVersion {
  return {
    id: row.id,
    pluginId: row.plugin_id,
    version: row.version,
    sha256: row.sha256,
    sizeBytes: row.size_bytes,
    changelog: row.changelog,
    publishedAt: row.published_at,
    minLauncherVersion: row.min_launcher_version,
    permissions: stringList(row.permissions),
    layers: stringList(row.layers),
    status: row.status,
    rolloutPercent: row.rollout_percent,
    signerKeyId: row.signer_key_id,
    createdAt: row.created_at,
    reviewNote: row.review_note,
  };
}

export function pendingVersionOf(row: PendingVersionRow): PendingVersion {
  return { ...versionOf(row), slug: row.slug, pluginName: row.plugin_name, ownerAccountId: row.owner_account_id };
}

export function reviewOf(row: ReviewRow): Review {
  return {
    pluginId: row.plugin_id,
    accountId: row.account_id,
    authorName: row.author_name,
    rating: row.rating,
    text: row.text,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
