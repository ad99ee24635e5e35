import { PluginCatalog } from './stub/plugin-catalog.js';

/** How often `plugins-dev/` is listed again for plugins added or removed while the harness runs. */
export const PLUGIN_FOLDERS_POLL_MS = 1000;

/** A plugin folder of `plugins-dev/`. */
export interface PluginFolder {
  readonly id: string;
  /** The folder (its real path). */
  readonly dir: string;
}

/** What changed in `plugins-dev/` since the last listing. */
export interface PluginFolderChange {
  readonly added: readonly PluginFolder[];
  readonly removed: readonly PluginFolder[];
  /** Every plugin now. */
  readonly current: readonly PluginFolder[];
}

/** A running watch of `plugins-dev/`. */
export interface PluginFolderWatch {
  /** The plugins as last listed. */
  current(): readonly PluginFolder[];
  close(): void;
}

/**
 * Lists the plugins of `<root>/plugins-dev/` the way the stub lists them (its `PluginCatalog`: each
 * `<id>/` with a valid `manifest.json`), now and then every {@link PLUGIN_FOLDERS_POLL_MS} ms, and
 * calls `onChange` when plugins were added or removed. Listing, rather than a file-system watch,
 * also sees a plugin whose `manifest.json` is written after its folder was made, on every
 * platform, for one directory read a second. Listings never overlap, so changes arrive in order.
 */
export async function watchPluginFolders(root: string, onChange: (change: PluginFolderChange) => void): Promise<PluginFolderWatch> {
  // The stub's own catalog reports folders it leaves out; this one stays quiet, so each is reported once.
  const catalog = new PluginCatalog(root, () => undefined);
  const list = async (): Promise<PluginFolder[]> => (await catalog.list()).map((plugin) => ({ id: plugin.id, dir: plugin.folder }));
  let known = await list();
  let closed = false;
  let listing = false;
  const timer = setInterval(() => {
    if (listing) return;
    listing = true;
    void list()
      .then((now) => {
        if (closed) return;
        const added = now.filter((plugin) => !known.some((other) => other.id === plugin.id));
        const removed = known.filter((plugin) => !now.some((other) => other.id === plugin.id));
        known = now;
        if (added.length > 0 || removed.length > 0) onChange({ added, removed, current: now });
      })
      .catch(() => undefined)
      .finally(() => {
        listing = false;
      });
  }, PLUGIN_FOLDERS_POLL_MS);
  timer.unref();
  return {
    current: () => known,
    close() {
      closed = true;
      clearInterval(timer);
    },
  };
}
