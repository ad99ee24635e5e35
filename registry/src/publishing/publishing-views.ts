/**
 * The JSON shapes of the publishing endpoints (camelCase, ISO 8601 times, optional fields omitted
 * rather than `null`) and their construction from catalog records.
 */
import { getPermission, type PermissionRisk } from '@plughost/host-sdk/core';
import type { CatalogPlugin, CatalogVersion, PendingVersion, VersionStatus } from '../catalog/catalog-types.js';
import type { VersionUploadFacts } from './publishing-repository.js';
import { pluginRecordView } from '../protocol/views.js';
import type { RegistryPluginRecord } from '../protocol/registry-protocol.js';

/** A version as its owner sees it (`GET /plugins/mine`, upload and rollout answers). */
export interface OwnedVersionView {
  id: string;
  version: string;
  status: VersionStatus;
  sha256: string;
  sizeBytes: number;
  changelog: string;
  /** When it became `published`; absent while it never was. */
  publishedAt?: string;
  minLauncherVersion: string;
  permissions: string[];
  layers: string[];
  rolloutPercent: number;
  /** Key id of the developer key that signed the package. */
  signerKeyId?: string;
  /** Upload time. */
  createdAt: string;
  /** The reviewer's note (the reason of a rejection). */
  reviewNote?: string;
}

/** A plugin and every version of it, as its owner sees it. */
export interface OwnedPluginView extends RegistryPluginRecord {
  /** Every version in any state, newest upload first. */
  versions: OwnedVersionView[];
}

/** `GET /plugins/mine`. */
export interface OwnedPluginList {
  items: OwnedPluginView[];
}

/** The answer of `POST /plugins/<id>/versions`. */
export interface UploadedVersionView extends OwnedVersionView {
  pluginId: string;
  slug: string;
  /** Why the version waits for review; empty when it was published at once. */
  reviewReasons: string[];
}

/** A permission with its risk. */
export interface PermissionRiskView {
  id: string;
  risk: PermissionRisk;
}

/** One entry of `GET /admin/review-queue`. */
export interface ReviewQueueItem {
  /** The version id (`POST /admin/versions/<id>/approve`). */
  id: string;
  pluginId: string;
  slug: string;
  pluginName: string;
  version: string;
  createdAt: string;
  changelog: string;
  sha256: string;
  sizeBytes: number;
  minLauncherVersion: string;
  layers: string[];
  permissions: PermissionRiskView[];
  signerKeyId?: string;
  owner: { accountId: string; username?: string };
  /** The highest risk (install dialog colour) and why the version was not published at once. */
  risk: { highest: PermissionRisk; reasons: string[] };
  /** `GET` it with the admin key to review the package bytes. */
  packageUrl: string;
}

/** `GET /admin/review-queue`. */
export interface ReviewQueue {
  items: ReviewQueueItem[];
}

export function ownedVersionView(version: CatalogVersion): OwnedVersionView {
  return {
    id: version.id,
    version: version.version,
    status: version.status,
    sha256: version.sha256,
    sizeBytes: version.sizeBytes,
    changelog: version.changelog,
    ...(version.publishedAt !== null ? { publishedAt: version.publishedAt } : {}),
    minLauncherVersion: version.minLauncherVersion,
    permissions: [...version.permissions],
    layers: [...version.layers],
    rolloutPercent: version.rolloutPercent,
    ...(version.signerKeyId !== null ? { signerKeyId: version.signerKeyId } : {}),
    createdAt: version.createdAt,
    ...(version.reviewNote !== null ? { reviewNote: version.reviewNote } : {}),
  };
}

export function ownedPluginView(plugin: CatalogPlugin, versions: readonly CatalogVersion[]): OwnedPluginView {
  return { ...pluginRecordView(plugin), versions: versions.map(ownedVersionView) };
}

/** The risk of every permission id; an id the table does not know counts as danger. */
export function permissionRisks(permissions: readonly string[]): PermissionRiskView[] {
  return permissions.map((id) => ({ id, risk: getPermission(id)?.risk ?? 'danger' }));
}

function highestOf(permissions: readonly PermissionRiskView[]): PermissionRisk {
  if (permissions.some((permission) => permission.risk === 'danger')) return 'danger';
  return permissions.some((permission) => permission.risk === 'warning') ? 'warning' : 'normal';
}

/** A pending version as the review queue lists it; `apiRoot` makes `packageUrl` absolute. */
export function reviewQueueItem(version: PendingVersion, facts: VersionUploadFacts | undefined, apiRoot: string): ReviewQueueItem {
  const permissions = permissionRisks(version.permissions);
  return {
    id: version.id,
    pluginId: version.pluginId,
    slug: version.slug,
    pluginName: version.pluginName,
    version: version.version,
    createdAt: version.createdAt,
    changelog: version.changelog,
    sha256: version.sha256,
    sizeBytes: version.sizeBytes,
    minLauncherVersion: version.minLauncherVersion,
    layers: [...version.layers],
    permissions,
    ...(version.signerKeyId !== null ? { signerKeyId: version.signerKeyId } : {}),
    owner: { accountId: version.ownerAccountId, ...(facts?.uploaderName ? { username: facts.uploaderName } : {}) },
    risk: { highest: facts?.highestRisk ?? highestOf(permissions), reasons: [...(facts?.reviewReasons ?? [])] },
    packageUrl: `${apiRoot}/admin/versions/${encodeURIComponent(version.id)}/package`,
  };
}
