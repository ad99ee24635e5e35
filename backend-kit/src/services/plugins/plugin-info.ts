import { describeCapabilities, type PermissionRisk, type PluginManifest } from '@plughost/host-sdk/core';
import type { PluginRecord } from './plugin-records.js';

/**
 * Where a plugin stands in its lifecycle, fixed when the backend (re)reads its state
 * (decisions section 4):
 * - `active`: enabled, and the manifest has `entry.frontend`;
 * - `disabled`: the user disabled it;
 * - `installed`: anything else (never enabled, or enabled but without a page to activate).
 */
export type PluginStatus = 'installed' | 'active' | 'disabled';

/** The installed plugin record of the specification (PluginInfo), plus `enabled`. */
export interface PluginInfo {
  readonly id: string;
  readonly name: string;
  readonly version: string;
  /** The status at the last (re)read; enabling or disabling changes it only after a restart. */
  readonly status: PluginStatus;
  /** What the user chose; takes effect at the next restart. */
  readonly enabled: boolean;
  /** True when a snapshot `plugins/<id>.bak-<version>/` exists to roll back to. */
  readonly hasRollback: boolean;
}

/** One line of the install dialog: a permission (or `render:inline`) and its risk. */
export interface PermissionSummary {
  readonly id: string;
  readonly risk: PermissionRisk;
}

/** The status a plugin gets when the backend reads its state. */
export function statusAtRead(manifest: PluginManifest, record: PluginRecord | undefined): PluginStatus {
  if (record?.enabled === true) return manifest.entry?.frontend !== undefined ? 'active' : 'installed';
  return record?.disabledByUser === true ? 'disabled' : 'installed';
}

/**
 * What installing `manifest` allows, highest risk first. `render: inline` is listed as the
 * danger-level `render:inline`, because an inline plugin runs in the launcher's own window
 * whatever permissions it declares (decisions section 2).
 */
export function permissionsOf(manifest: PluginManifest): PermissionSummary[] {
  return describeCapabilities(manifest).capabilities.map(({ id, risk }) => ({ id, risk }));
}
