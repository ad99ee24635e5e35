/** The checks and conversions both catalog stores apply to what they are asked to write. */
import { randomUUID } from 'node:crypto';
import { isValidSlug } from '@plughost/host-sdk/core';
import { RegistryError, invalidArgument } from '../errors/registry-error.js';
import { PLUGIN_SORTS, VERSION_STATUSES, type NewVersion, type PluginListQuery, type PluginSort, type VersionStatus } from './catalog-types.js';
import { versionOrder, type VersionOrder } from './version-key.js';

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** 24 hours: how far back a report can still count (the pause window), and how far back a reporter is re-keyed. */
export const REPORTER_REKEY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** @throws RegistryError `invalid_argument` when `version` is not semver. */
export function orderOf(version: string, field: string): VersionOrder {
  try {
    return versionOrder(version);
  } catch {
    throw invalidArgument(`${field} must be a semver version (got "${version}")`);
  }
}

/** Tags are compared case-insensitively: stored lower case, trimmed, without duplicates or empties. */
export function normalizedTags(tags: readonly string[] | undefined): string[] {
  return [...new Set((tags ?? []).map((tag) => tag.trim().toLowerCase()).filter((tag) => tag !== ''))];
}

/** @throws RegistryError `invalid_argument` unless `value` is a whole number from 0 to 100. */
export function requireRolloutPercent(value: number): number {
  if (!(Number.isInteger(value) && value >= 0 && value <= 100)) throw invalidArgument(`rolloutPercent must be a whole number from 0 to 100 (got ${value})`);
  return value;
}

/** @throws RegistryError `invalid_argument` when `slug` breaks the slug rule. */
export function checkSlug(slug: string): void {
  if (!isValidSlug(slug)) throw invalidArgument(`"${slug}" is not a slug (a-z, 0-9 and single hyphens, at most 64 characters)`);
}

/** @throws RegistryError `invalid_argument` unless `status` is a version status. */
export function checkStatus(status: VersionStatus): void {
  if (!(VERSION_STATUSES as readonly string[]).includes(status)) throw invalidArgument(`status must be one of ${VERSION_STATUSES.join(', ')}`);
}

/** A version as both stores insert it: id generated, precedence keys computed, lists as JSON text. */
export interface NewVersionRow {
  readonly id: string;
  readonly pluginId: string;
  readonly version: string;
  readonly versionKey: string;
  /** 1 for a pre-release. */
  readonly prerelease: 0 | 1;
  readonly sha256: string;
  readonly sizeBytes: number;
  readonly changelog: string;
  readonly publishedAt: string | null;
  readonly minLauncherVersion: string;
  readonly minLauncherKey: string;
  /** JSON text of a string list. */
  readonly permissions: string;
  readonly layers: string;
  readonly status: VersionStatus;
  readonly rolloutPercent: number;
  readonly signerKeyId: string | null;
  readonly createdAt: string;
}

/**
 * Checks a new version and computes what is stored beside it.
 *
 * @throws RegistryError `invalid_argument` naming the field.
 */
export function newVersionRow(version: NewVersion): NewVersionRow {
  const order = orderOf(version.version, 'version');
  const minimum = orderOf(version.minLauncherVersion, 'minLauncherVersion');
  if (!SHA256_HEX.test(version.sha256)) throw invalidArgument('sha256 must be 64 lower-case hex digits');
  if (!(Number.isSafeInteger(version.sizeBytes) && version.sizeBytes >= 0)) throw invalidArgument('sizeBytes must be a whole number of bytes');
  checkStatus(version.status);
  return {
    id: randomUUID(),
    pluginId: version.pluginId,
    version: version.version,
    versionKey: order.key,
    prerelease: order.prerelease ? 1 : 0,
    sha256: version.sha256,
    sizeBytes: version.sizeBytes,
    changelog: version.changelog ?? '',
    publishedAt: version.status === 'published' ? version.createdAt : null,
    minLauncherVersion: version.minLauncherVersion,
    minLauncherKey: minimum.key,
    permissions: JSON.stringify(version.permissions ?? []),
    layers: JSON.stringify(version.layers ?? []),
    status: version.status,
    rolloutPercent: requireRolloutPercent(version.rolloutPercent ?? 100),
    signerKeyId: version.signerKeyId ?? null,
    createdAt: version.createdAt,
  };
}

/** The `version_exists` refusal; `existing` is the stored version of equal precedence. */
export function versionExists(slug: string, version: string, existing: string): RegistryError {
  const detail = existing === version ? '' : ` (${existing} has the same precedence)`;
  return new RegistryError('version_exists', `${slug} ${version} exists already${detail}`);
}

/** A LIKE pattern matching `text` anywhere, with `\`, `%` and `_` taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** The filters of a plugin list query as both stores bind them. */
export interface ListFilters {
  /** A LIKE pattern of `q`, or null. */
  readonly pattern: string | null;
  readonly category: string | null;
  /** JSON text of the tags that must all be present. */
  readonly tags: string;
  /** The version key of `minLauncherVersion`, or null. */
  readonly launcherKey: string | null;
}

/** @throws RegistryError `invalid_argument` for a malformed `minLauncherVersion`. */
export function listFilters(query: PluginListQuery): ListFilters {
  const q = query.q?.trim() ?? '';
  return {
    pattern: q === '' ? null : containsPattern(q),
    category: query.category ?? null,
    tags: JSON.stringify(normalizedTags(query.tags)),
    launcherKey: query.minLauncherVersion === undefined ? null : orderOf(query.minLauncherVersion, 'minLauncherVersion').key,
  };
}

/** The sort of a list query (default `downloads`). @throws RegistryError `invalid_argument` for an unknown one. */
export function sortOf(query: PluginListQuery): PluginSort {
  const sort = query.sort ?? 'downloads';
  if (!(PLUGIN_SORTS as readonly string[]).includes(sort)) throw invalidArgument(`sort must be one of ${PLUGIN_SORTS.join(', ')}`);
  return sort;
}
