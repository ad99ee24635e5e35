import { planActivation, type PluginManifest } from '@plughost/host-sdk/core';
import type { RevocationService } from '../revocation/revocation-service.js';
import type { StoreOrigins } from '../store/store-origins.js';
import { readInstalledManifest } from '../installed-manifest.js';
import { listedPage } from './listed-page.js';
import { readPluginFolders } from './plugin-folders.js';
import { statusAtRead, type ListedPluginInfo, type PluginInfo, type PluginStatus } from './plugin-info.js';
import type { PluginRecord, PluginRecordStore } from './plugin-records.js';
import { isRecordedSignerRevoked } from './rollback-signer.js';
import type { PluginStorage } from './service-env.js';

/**
 * What the launcher loaded of one plugin at the last (re)read. The install time tells two copies
 * of one version apart (a reinstall, an overwrite by the same version); a rollback restores the
 * snapshot's install time, so rolling an update back before the restart leaves nothing pending.
 */
interface LoadedCopy {
  readonly version: string;
  readonly installedAt: string | undefined;
  readonly enabled: boolean;
}

/** What the launcher would load of a plugin now. */
function copyOf(manifest: PluginManifest, record: PluginRecord | undefined): LoadedCopy {
  return { version: manifest.version, installedAt: record?.installedAt, enabled: record?.enabled ?? false };
}

/** Options of {@link PluginCatalog.list}. */
export interface PluginListOptions {
  /** Add each `active` plugin's manifest (`GET /api/plugins/?include=manifest`). Default false. */
  readonly manifests?: boolean;
  /**
   * Add each `active` plugin's page (`entry.frontend`) as text, when the plugin file route would
   * serve it and it is at most 64 KiB (`?include=page`). Default false.
   */
  readonly pages?: boolean;
}

/**
 * The installed plugins as the launcher sees them: what is on disk now, with the status each had
 * when the backend last read its state. Statuses change only at (re)read, so enabling, disabling,
 * overwriting or rolling back shows up after the launcher restarts (decisions section 4); until
 * then PluginInfo carries `restartPending`.
 */
export class PluginCatalog {
  readonly #context: Pick<PluginStorage, 'paths' | 'logger'>;
  readonly #records: PluginRecordStore;
  readonly #revocation: RevocationService;
  readonly #origins: Pick<StoreOrigins, 'originOf'>;
  #statuses = new Map<string, PluginStatus>();
  // Kept through an uninstall: the launcher still runs what it loaded until it restarts.
  #loaded = new Map<string, LoadedCopy>();
  // Folders already reported as unreadable since the last read, so listing does not flood the log.
  #warned = new Set<string>();

  constructor(
    context: Pick<PluginStorage, 'paths' | 'logger'>,
    records: PluginRecordStore,
    revocation: RevocationService,
    origins: Pick<StoreOrigins, 'originOf'>,
  ) {
    this.#context = context;
    this.#records = records;
    this.#revocation = revocation;
    this.#origins = origins;
  }

  /** Reads the state again: records from disk, then every plugin's status and what the launcher loads. */
  async read(): Promise<void> {
    await this.#records.reload();
    this.#warned = new Set();
    const installed = await this.#manifests();
    const statuses = new Map<string, PluginStatus>();
    const loaded = new Map<string, LoadedCopy>();
    for (const manifest of installed) {
      const record = this.#records.get(manifest.id);
      statuses.set(manifest.id, statusAtRead(manifest, record));
      loaded.set(manifest.id, copyOf(manifest, record));
    }
    this.#statuses = statuses;
    this.#loaded = loaded;
    this.#logActivationProblems(installed);
  }

  /** The status fixed at the last read; a plugin installed since then is `installed`. */
  statusOf(id: string): PluginStatus {
    return this.#statuses.get(id) ?? 'installed';
  }

  /**
   * Forgets the status of a plugin that was removed, or installed anew. What the launcher loaded
   * of it stays known, so a reinstall still reports `restartPending`.
   */
  forget(id: string): void {
    this.#statuses.delete(id);
  }

  /**
   * True when what is installed now differs from what the launcher loaded at the last read: not
   * installed then, another copy or version now, or `enabled` changed.
   */
  restartPending(manifest: PluginManifest, record: PluginRecord | undefined): boolean {
    const loaded = this.#loaded.get(manifest.id);
    const now = copyOf(manifest, record);
    return loaded === undefined || loaded.version !== now.version || loaded.installedAt !== now.installedAt || loaded.enabled !== now.enabled;
  }

  /**
   * PluginInfo of one plugin from its manifest and record. `signerRevoked` is added when the key
   * that signed the installed version is on the store's revocation list now: the plugin keeps
   * running, and the manager marks it (decisions section 8). `rollbackSignerRevoked` is added when
   * the recorded signer of the kept snapshot is on the list: rollback refuses it (decisions section
   * 12). `store` is added when the installed version came from a store, `restartPending` when a
   * restart would load something else.
   */
  infoOf(manifest: PluginManifest, record: PluginRecord | undefined, hasRollback: boolean): PluginInfo {
    const signer = record?.signer?.keyId;
    const revoked = this.#revocation.revokedKeyIds();
    const store = this.#origins.originOf(manifest.id, manifest.version);
    return {
      id: manifest.id,
      name: manifest.name,
      version: manifest.version,
      status: this.statusOf(manifest.id),
      enabled: record?.enabled ?? false,
      hasRollback,
      ...(signer !== undefined && revoked.has(signer) ? { signerRevoked: true as const } : {}),
      ...(hasRollback && isRecordedSignerRevoked(record?.snapshot?.signer, revoked) ? { rollbackSignerRevoked: true as const } : {}),
      ...(store ? { store: { source: store.source, slug: store.slug } } : {}),
      ...(this.restartPending(manifest, record) ? { restartPending: true as const } : {}),
    };
  }

  /**
   * Every installed plugin, sorted by id; with `manifests`, each `active` one carries the manifest
   * the list was made from (already read, so it costs nothing more).
   */
  async list(options: PluginListOptions = {}): Promise<ListedPluginInfo[]> {
    const folders = await readPluginFolders(this.#context.paths, this.#context.logger);
    const infos: ListedPluginInfo[] = [];
    for (const manifest of await this.#manifests(folders.installed)) {
      const hasRollback = (folders.snapshots.get(manifest.id)?.length ?? 0) > 0;
      const info = this.infoOf(manifest, this.#records.get(manifest.id), hasRollback);
      infos.push(info.status === 'active' ? await this.#withActivation(info, manifest, options) : info);
    }
    return infos;
  }

  /** What activation needs of an active plugin, as `options` ask: its manifest, its page. */
  async #withActivation(info: PluginInfo, manifest: PluginManifest, options: PluginListOptions): Promise<ListedPluginInfo> {
    const frontend = manifest.entry?.frontend;
    const page = options.pages === true && frontend !== undefined ? await listedPage(this.#context.paths.pluginFolder(manifest.id), frontend) : undefined;
    return { ...info, ...(options.manifests === true ? { manifest } : {}), ...(page !== undefined ? { page } : {}) };
  }

  async #manifests(ids?: readonly string[]): Promise<PluginManifest[]> {
    const { paths, logger } = this.#context;
    const manifests: PluginManifest[] = [];
    for (const id of ids ?? (await readPluginFolders(paths, logger)).installed) {
      const manifest = await readInstalledManifest(paths, id);
      if (manifest) {
        manifests.push(manifest);
      } else if (!this.#warned.has(id)) {
        this.#warned.add(id);
        logger.warn('Skipping a plugin folder without a valid manifest.json for its id', { pluginId: id });
      }
    }
    return manifests;
  }

  /** The launcher page skips active plugins whose dependencies are missing; say so in the log too. */
  #logActivationProblems(installed: readonly PluginManifest[]): void {
    const active = installed.filter((manifest) => this.#statuses.get(manifest.id) === 'active');
    const plan = planActivation(active.map(({ id, version, dependencies }) => ({ id, version, dependencies })));
    for (const skipped of plan.skipped) this.#context.logger.warn(skipped.message, { pluginId: skipped.id });
  }
}
