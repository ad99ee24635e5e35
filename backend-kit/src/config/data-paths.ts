import { join } from 'node:path';

/**
 * Where the local backend keeps things under the data directory. Plugin folders hold only what
 * came from the package plus `settings.json` and `cache.json`; the backend's own records live
 * under `backend/`, outside every plugin folder, so no plugin file route can ever serve them.
 */
export interface DataPaths {
  /** The data directory (`LAUNCHER_HOME` or the platform's per-user folder). */
  readonly root: string;
  /** `plugins/`: one folder per installed plugin, plus `<id>.bak-<version>` snapshots. */
  readonly plugins: string;
  /** `backend/`: records the backend writes (plugin states, authorizations). */
  readonly backend: string;
  /** `backend/tmp/`: extraction and staging, on the same file system as `plugins/` so renames work. */
  readonly temporary: string;
  /** `instances/`: where new instances go when the caller names no game directory of its own. */
  readonly instances: string;
  /** `downloads/`: the launcher's download folder; downloads there need no path consent. */
  readonly downloads: string;
  /**
   * `dev/`: the settings and cache of dev plugins (`dev/<id>/`, decisions section 10), apart from
   * an installed plugin of the same id.
   */
  readonly devPlugins: string;
  /** `plugins/<id>/` */
  pluginFolder(id: string): string;
  /** `dev/<id>/`: where a dev plugin's `settings.json` and `cache.json` live. */
  devPluginFolder(id: string): string;
  /** `plugins/<id>.bak-<version>/` */
  snapshotFolder(id: string, version: string): string;
}

/** The layout under `root`. */
export function dataPaths(root: string): DataPaths {
  const plugins = join(root, 'plugins');
  const backend = join(root, 'backend');
  const devPlugins = join(root, 'dev');
  return {
    root,
    plugins,
    backend,
    temporary: join(backend, 'tmp'),
    instances: join(root, 'instances'),
    downloads: join(root, 'downloads'),
    devPlugins,
    pluginFolder: (id) => join(plugins, id),
    devPluginFolder: (id) => join(devPlugins, id),
    snapshotFolder: (id, version) => join(plugins, `${id}.bak-${version}`),
  };
}
