import { join } from 'node:path';
import { isValidPluginId, isValidSlug, type PluginStoreRecord } from '@plughost/host-sdk/core';
import type { DataPaths } from '../../config/data-paths.js';
import type { BackendLogger } from '../../http/logger.js';
import { readJsonFile, writeJsonAtomic } from '../atomic-file.js';
import { normalizeSourceUrl } from '../launcher-settings/launcher-settings.js';

/**
 * A remembered origin: where a store-installed plugin came from (decisions section 8, what update
 * checks send), the same `{source, slug}` that PluginInfo's `store` carries.
 */
interface OriginRecord extends PluginStoreRecord {
  /** Versions of the plugin installed from that store, newest install last (the installed one and its snapshot among them). */
  readonly versions: readonly string[];
}

/** Versions remembered per plugin: the installed one and the snapshot need two; a few more cost nothing. */
const VERSIONS_KEPT = 4;

/** The store origins of installed plugins; see {@link loadStoreOrigins}. */
export interface StoreOrigins {
  /**
   * The origin of `id` when its installed `version` came from a store: a plugin installed by
   * upload or from a folder has none (and is not checked for updates) until it is installed from
   * a store, even when an earlier version was.
   */
  originOf(id: string, version: string): PluginStoreRecord | null;
  /** Records a store install of `id` at `version`. */
  record(id: string, origin: PluginStoreRecord, version: string): Promise<void>;
  /**
   * Records an install of `id` at `version` from a file (upload or folder): that version is no
   * longer the store's package, so it leaves the record (the record goes with its last version).
   * Other versions the store installed stay, so rolling back to the store's snapshot makes the
   * plugin store-installed again.
   */
  recordFileInstall(id: string, version: string): Promise<void>;
  /** Drops the record of `id` (uninstall). */
  forget(id: string): Promise<void>;
  /** Drops the records of plugins no longer installed. */
  keepOnly(installedIds: readonly string[]): Promise<void>;
}

function readRecord(value: unknown): OriginRecord | null {
  if (typeof value !== 'object' || value === null) return null;
  const { source, slug, versions } = value as Record<string, unknown>;
  const url = normalizeSourceUrl(source);
  if (url === null || !isValidSlug(slug) || !Array.isArray(versions)) return null;
  return { source: url, slug, versions: versions.filter((entry): entry is string => typeof entry === 'string').slice(-VERSIONS_KEPT) };
}

/**
 * Loads `backend/store-origins.json`: under `backend/`, outside every plugin folder, so no package
 * can bring its own record and no plugin file route can serve it. A record names the versions that
 * came from the store; the plugin service keeps it up to date: a store install adds its version,
 * an upload or folder install takes its version out (the same version built elsewhere is not the
 * store's package), an uninstall drops the record. Rolling back to a version the store installed
 * (and no file install replaced since) makes the plugin store-installed again.
 */
export async function loadStoreOrigins(paths: DataPaths, logger: BackendLogger): Promise<StoreOrigins> {
  const file = join(paths.backend, 'store-origins.json');
  const records = new Map<string, OriginRecord>();
  try {
    const content = await readJsonFile(file, { plugins: {} });
    const plugins = (content as { plugins?: unknown }).plugins;
    if (typeof plugins === 'object' && plugins !== null) {
      for (const [id, value] of Object.entries(plugins)) {
        const record = readRecord(value);
        if (isValidPluginId(id) && record) records.set(id, record);
      }
    }
  } catch (error) {
    logger.warn('store-origins.json could not be read; store-installed plugins are checked for updates again after their next store install', {
      error: error instanceof Error ? error.message : String(error),
    });
  }
  let queue: Promise<unknown> = Promise.resolve();
  const write = (change: () => void): Promise<void> => {
    const run = queue.then(async () => {
      change();
      const plugins = Object.fromEntries([...records].sort(([a], [b]) => (a < b ? -1 : 1)));
      await writeJsonAtomic(file, { version: 1, plugins });
    });
    queue = run.catch(() => undefined);
    return run;
  };
  return {
    originOf(id, version) {
      const record = records.get(id);
      return record?.versions.includes(version) ? { source: record.source, slug: record.slug } : null;
    },
    record(id, origin, version) {
      return write(() => {
        const previous = records.get(id);
        const sameStore = previous && previous.slug === origin.slug;
        const versions = [...(sameStore ? previous.versions.filter((entry) => entry !== version) : []), version].slice(-VERSIONS_KEPT);
        records.set(id, { source: origin.source, slug: origin.slug, versions });
      });
    },
    recordFileInstall(id, version) {
      if (!records.get(id)?.versions.includes(version)) return Promise.resolve();
      return write(() => {
        const previous = records.get(id);
        const versions = previous?.versions.filter((entry) => entry !== version) ?? [];
        if (previous && versions.length > 0) records.set(id, { ...previous, versions });
        else records.delete(id);
      });
    },
    forget(id) {
      return records.has(id) ? write(() => records.delete(id)) : Promise.resolve();
    },
    async keepOnly(installedIds) {
      const stale = [...records.keys()].filter((id) => !installedIds.includes(id));
      if (stale.length === 0) return;
      await write(() => {
        for (const id of stale) records.delete(id);
      });
    },
  };
}
