/**
 * The wire shapes of the local backend's update routes (`GET /api/plugins/updates`,
 * `POST /api/plugins/updates/check` and the `added` list of a 409 `CONSENT_REQUIRED`, decisions
 * section 8), shared by the backend that sends them and the launcher's UI that reads them. The
 * OpenAPI description names its schemas the same.
 */
import type { PermissionRisk } from './permissions.js';

/** A permission a newer version asks for that the installed one did not. */
export interface AddedPermission {
  readonly id: string;
  readonly risk: PermissionRisk;
}

/** One update the launcher offers, rollout already applied by the backend (decisions section 6). */
export interface AvailableUpdate {
  /** The installed plugin's manifest id. */
  readonly id: string;
  /** Its slug on the store it was installed from. */
  readonly slug: string;
  /** The version installed now. */
  readonly currentVersion: string;
  readonly latestVersion: string;
  /** The new version's changelog: plain text, shown as text. */
  readonly changelog: string;
  readonly publishedAt: string;
  readonly rolloutPercent: number;
  /**
   * Permissions the new version asks for beyond the installed one's, highest risk first; the user
   * consents to them before the update runs.
   */
  readonly addedPermissions: readonly AddedPermission[];
}

/** The answer of `GET /api/plugins/updates` (and of `POST /api/plugins/updates/check`). */
export interface UpdatesSnapshot {
  /** ISO time of the last successful check; `null` before the first. */
  readonly checkedAt: string | null;
  readonly updates: readonly AvailableUpdate[];
}
