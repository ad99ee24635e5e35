import { describeCapabilities, type PermissionRisk, type PluginInfo, type PluginManifest, type PluginStatus } from '@plughost/host-sdk/core';
import type { PluginRecord } from './plugin-records.js';

export type { PluginInfo, PluginStatus } from '@plughost/host-sdk/core';

/**
 * An entry of the plugin list as `GET /api/plugins/?include=manifest,page` gives it: PluginInfo,
 * plus what the launcher page needs to activate each `active` installed plugin without a request
 * per plugin. A dev plugin never carries either (its files come from its dev server, read when
 * the page asks for them).
 */
export interface ListedPluginInfo extends PluginInfo {
  /** With `include=manifest`: the installed manifest as the backend validated it (unknown fields left out). */
  readonly manifest?: PluginManifest;
  /**
   * With `include=page`: the text of `entry.frontend`, as the plugin file route serves it, when it
   * is at most 64 KiB; absent for a larger page (the launcher page fetches it as a file).
   */
  readonly page?: string;
}

/** One line of the install dialog: a permission (or `render:inline`) and its risk. */
export interface PermissionSummary {
  readonly id: string;
  readonly risk: PermissionRisk;
}

/** Exactly the PluginInfo fields of `installed` (an install answer without its extras). */
export function pluginInfoOf(installed: PluginInfo): PluginInfo {
  const { id, name, version, status, enabled, hasRollback, signerRevoked, rollbackSignerRevoked, store, restartPending } = installed;
  return {
    id,
    name,
    version,
    status,
    enabled,
    hasRollback,
    ...(signerRevoked === true ? { signerRevoked } : {}),
    ...(rollbackSignerRevoked === true ? { rollbackSignerRevoked } : {}),
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
