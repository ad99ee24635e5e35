/**
 * An installed plugin as the local backend lists it (`GET /api/plugins/`), shared by the backend
 * and the launcher's UI.
 */

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
  /**
   * Present (and `true`) when the developer key that signed the installed version is on the
   * store's revocation list. The plugin keeps running; the plugin manager marks it, so the user
   * can decide to uninstall it. Absent otherwise.
   */
  readonly signerRevoked?: true;
}
