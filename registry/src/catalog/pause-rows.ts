/**
 * Row shapes of the automatic pause's reads and writes (reporters, installed base, lifts, the
 * audit entry of a lift) and their conversion, the same for both stores.
 */
import type { NewPauseLift, PausedVersion, PauseLift, PauseState } from './catalog-types.js';

/** The audit log's `action` of a lift. */
export const LIFT_AUDIT_ACTION = 'rollout_pause.lift';

/** The counts and the latest lift of one version (the lift columns are `NULL` without one). */
export interface PauseStateRow {
  reporters: number;
  installed_base: number;
  lifted_at: string | null;
  lifted_by: string | null;
  reason: string | null;
  lift_reporters: number | null;
}

export interface PausedVersionRow extends PauseStateRow {
  version_id: string;
  plugin_id: string;
  slug: string;
  plugin_version: string;
  reports: number;
  last_report_at: string;
}

function liftOf(row: PauseStateRow): PauseLift | null {
  if (row.lifted_at === null) return null;
  return { liftedAt: row.lifted_at, liftedBy: row.lifted_by ?? '', reason: row.reason ?? '', reporters: row.lift_reporters ?? 0 };
}

export function pauseStateOf(row: PauseStateRow | undefined): PauseState {
  if (row === undefined) return { reporters: 0, installedBase: 0, lift: null };
  return { reporters: row.reporters, installedBase: row.installed_base, lift: liftOf(row) };
}

export function pausedVersionOf(row: PausedVersionRow): PausedVersion {
  return {
    versionId: row.version_id,
    pluginId: row.plugin_id,
    slug: row.slug,
    version: row.plugin_version,
    reporters: row.reporters,
    reports: row.reports,
    lastReportAt: row.last_report_at,
    installedBase: row.installed_base,
    lift: liftOf(row),
  };
}

/** The audit log row of a lift: who, when, from where, what (the id@version) and why, with the counts it was made against. */
export function liftAuditRow(lift: NewPauseLift): {
  at: string;
  actor: string;
  actorAddress: string;
  action: string;
  subject: string;
  reason: string;
  details: string;
} {
  return {
    at: lift.liftedAt,
    actor: lift.liftedBy,
    actorAddress: lift.actorAddress,
    action: LIFT_AUDIT_ACTION,
    subject: `${lift.pluginId}@${lift.version}`,
    reason: lift.reason,
    details: JSON.stringify({ versionId: lift.versionId, reporters: lift.reporters, installedBase: lift.installedBase, pauseThreshold: lift.pauseThreshold }),
  };
}
