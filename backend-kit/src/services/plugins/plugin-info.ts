import { describeCapabilities, type PermissionRisk, type PluginInfo, type PluginManifest, type PluginStatus } from '@plughost/host-sdk/core';
import type { PluginRecord } from './plugin-records.js';

export type { PluginInfo, PluginStatus } from '@plughost/host-sdk/core';

/**
 * An entry of the plugin list as `GET /api/plugins/?include=manifest` gives it: PluginInfo, plus
 * the manifest of each `active` installed plugin, so that the launcher page activates its plugins
 * without a request per manifest. A dev plugin never carries one (its manifest comes from its dev
 * server, read when the page asks for it).
 */
export interface ListedPluginInfo extends PluginInfo {
  /** The installed manifest as the backend validated it (unknown fields left out). */
  readonly manifest?: PluginManifest;
}

/** One line of the install dialog: a permission (or `render:inline`) and its risk. */
export interface PermissionSummary {
  readonly id: string;
  readonly risk: PermissionRisk;
}

/** Exactly the PluginInfo fields of `installed` (an install answer without its extras). */
export function pluginInfoOf(installed: PluginInfo): PluginInfo {
  const { id, name, version, status, enabled, hasRollback, signerRevoked, store, restartPending } = installed;
  return {
    id,
    name,
    version,
    status,
    enabled,
    hasRollback,
    ...(signerRevoked === true ? { signerRevoked } : {}),
    ...(store ? { store } : {}),
    ...(restartPending === true ? { restartPending } : {}),
  };
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
