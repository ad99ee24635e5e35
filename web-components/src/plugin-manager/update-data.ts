/**
 * Readers of the local backend's update routes (decisions section 8) that check the shapes field
 * by field: `GET /api/plugins/updates` and the `added` list of a 409 `CONSENT_REQUIRED`. The shapes
 * themselves are the core's, shared with the backend that sends them. An item or permission that
 * does not have the documented shape is left out rather than shown half.
 */
import {
  type AddedPermission,
  type AvailableUpdate,
  PERMISSION_RISKS,
  type PermissionRisk,
  type PluginStoreRecord,
  type UpdatesSnapshot,
} from '@plughost/host-sdk/core';
import { BackendRequestError } from './backend-request.js';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The permissions of an `added` or `addedPermissions` array; an unknown risk is shown as danger. */
export function readAddedPermissions(value: unknown): AddedPermission[] {
  if (!Array.isArray(value)) return [];
  const seen = new Set<string>();
  const permissions: AddedPermission[] = [];
  for (const entry of value) {
    // A bare id is accepted too: its risk comes from the permission table when shown.
    const id = typeof entry === 'string' ? entry : isRecord(entry) ? text(entry.id) : undefined;
    if (!id || seen.has(id)) continue;
    seen.add(id);
    const risk = isRecord(entry) ? entry.risk : undefined;
    permissions.push({ id, risk: (PERMISSION_RISKS as readonly unknown[]).includes(risk) ? (risk as PermissionRisk) : 'danger' });
  }
  return permissions;
}

function readUpdate(value: unknown): AvailableUpdate | undefined {
  if (!isRecord(value)) return undefined;
  const id = text(value.id);
  const latestVersion = text(value.latestVersion);
  if (!id || !latestVersion) return undefined;
  const rollout = value.rolloutPercent;
  return {
    id,
    slug: text(value.slug) ?? '',
    currentVersion: text(value.currentVersion) ?? '',
    latestVersion,
    changelog: text(value.changelog) ?? '',
    publishedAt: text(value.publishedAt) ?? '',
    rolloutPercent: typeof rollout === 'number' && Number.isFinite(rollout) ? rollout : 100,
    addedPermissions: readAddedPermissions(value.addedPermissions),
  };
}

/**
 * Reads the answer of `GET /api/plugins/updates` (or of `POST .../updates/check` when it sends
 * the same object).
 *
 * @throws BackendRequestError `INVALID_RESPONSE` when it has no `updates` array.
 */
export function readUpdateList(body: unknown): UpdatesSnapshot {
  if (!isRecord(body) || !Array.isArray(body.updates)) {
    throw new BackendRequestError('INVALID_RESPONSE', 'The launcher backend’s list of updates is not understood.', 200, body);
  }
  const updates = body.updates.map(readUpdate).filter((update): update is AvailableUpdate => update !== undefined);
  return { checkedAt: text(body.checkedAt) ?? null, updates };
}

/**
 * The `added` permissions of a 409 `CONSENT_REQUIRED` body. Decisions section 8 says the body
 * carries `{added: [{id, risk}]}` without fixing where, so every place is read: `error.details.added`
 * (the error envelope's details), `error.added`, then a top-level `added`. Null when none has any.
 */
export function consentRequiredPermissions(body: unknown): AddedPermission[] | null {
  if (!isRecord(body)) return null;
  const error = isRecord(body.error) ? body.error : {};
  const details = isRecord(error.details) ? error.details : {};
  for (const candidate of [details.added, error.added, body.added]) {
    const added = readAddedPermissions(candidate);
    if (added.length > 0) return added;
  }
  return null;
}

/** The store record of a PluginInfo, when it has a usable one. */
export function storeRecordOf(plugin: { readonly store?: unknown }): PluginStoreRecord | undefined {
  const store = plugin.store;
  if (!isRecord(store)) return undefined;
  const slug = text(store.slug);
  return slug ? { source: text(store.source) ?? '', slug } : undefined;
}
