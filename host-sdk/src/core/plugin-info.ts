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

/** Where a plugin installed from a store came from (`PluginInfo.store`). */
export interface PluginStoreRecord {
  /** The source (registry API root) the installed version was downloaded through. */
  readonly source: string;
  /** The plugin's slug there; update checks send it. */
  readonly slug: string;
}

/**
 * A plugin served by a running dev server (`pluginctl dev`), as a launcher in development mode
 * lists it (`PluginInfo.dev`, decisions section 10).
 */
export interface PluginDevRecord {
  /** The dev server's base URL, from `.dev-plugins.json` (always an `http:` loopback address, ending in `/`). */
  readonly url: string;
  /**
   * Why the launcher cannot load the plugin now (its dev server does not answer, its manifest is
   * invalid), with what to do; the plugin's `status` is then `installed`. Absent while it loads.
   */
  readonly problem?: string;
}

/** The installed plugin record of the specification (PluginInfo), plus `enabled`. */
export interface PluginInfo {
  readonly id: string;
  readonly name: string;
  readonly version: string;
  /**
   * The status at the last (re)read (backend start or `POST /api/launcher/restart`); enabling,
   * disabling, updating or rolling back changes it only after a restart (see `restartPending`).
   */
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
  /**
   * Present (and `true`) when `hasRollback` is true but the developer key that signed the kept
   * snapshot (as the backend recorded it when the snapshot was made) is on the store's revocation
   * list: `POST /api/plugins/<id>/rollback` refuses it with 400 `SIGNATURE_INVALID` naming the key,
   * with no override, so the plugin manager does not offer "Roll back" and says why (decisions
   * section 12). Absent otherwise.
   */
  readonly rollbackSignerRevoked?: true;
  /**
   * Where the installed version came from, when it was installed from a store: the source (the
   * registry API root it was downloaded through) and the plugin's slug there. Only such plugins are
   * checked for updates. Absent for a plugin installed by upload or from a folder ("installed from
   * a file"), also when an earlier version came from a store (decisions section 8).
   */
  readonly store?: PluginStoreRecord;
  /**
   * Present (and `true`) when what is installed differs from what the launcher loaded at the last
   * (re)read: the plugin was installed since, another copy or version replaced it (update,
   * overwrite, rollback), or `enabled` changed. A restart applies it; until then `status` and the
   * running code are the old ones. Absent otherwise, also after changes that cancel out (an update
   * rolled back, a switch turned off and on again).
   */
  readonly restartPending?: true;
  /**
   * Present only for a dev plugin: a launcher in development mode (`createLocalBackend`'s
   * `devPlugins`) lists each plugin of `.dev-plugins.json` in its data directory, served by its
   * dev server rather than installed. It is `active` (unsigned, still sandboxed and gated by its
   * manifest's permissions), `enabled`, never has a rollback, and cannot be disabled, updated or
   * uninstalled; while its dev server runs it takes the place of an installed plugin of the same
   * id, which stays untouched on disk. Absent for installed plugins.
   */
  readonly dev?: PluginDevRecord;
}
