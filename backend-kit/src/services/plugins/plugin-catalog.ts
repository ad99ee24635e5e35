import { planActivation, type PluginManifest } from '@plughost/host-sdk/core';
import type { RevocationService } from '../revocation/revocation-service.js';
import { readInstalledManifest } from '../installed-manifest.js';
import { readPluginFolders } from './plugin-folders.js';
import { statusAtRead, type PluginInfo, type PluginStatus } from './plugin-info.js';
import type { PluginRecord, PluginRecordStore } from './plugin-records.js';
import type { PluginStorage } from './service-env.js';

/**
 * The installed plugins as the launcher sees them: what is on disk now, with the status each had
 * when the backend last read its state. Statuses change only at (re)read, so enabling, disabling,
 * overwriting or rolling back shows up after the launcher restarts (decisions section 4).
 */
export class PluginCatalog {
  readonly #context: Pick<PluginStorage, 'paths' | 'logger'>;
  readonly #records: PluginRecordStore;
  readonly #revocation: RevocationService;
  #statuses = new Map<string, PluginStatus>();
  // Folders already reported as unreadable since the last read, so listing does not flood the log.
  #warned = new Set<string>();

  constructor(context: Pick<PluginStorage, 'paths' | 'logger'>, records: PluginRecordStore, revocation: RevocationService) {
    this.#context = context;
    this.#records = records;
    this.#revocation = revocation;
  }

  /** Reads the state again: records from disk, then every plugin's status. */
  async read(): Promise<void> {
    await this.#records.reload();
    this.#warned = new Set();
    const installed = await this.#manifests();
    const statuses = new Map<string, PluginStatus>();
    for (const manifest of installed) statuses.set(manifest.id, statusAtRead(manifest, this.#records.get(manifest.id)));
    this.#statuses = statuses;
    this.#logActivationProblems(installed);
  }

  /** The status fixed at the last read; a plugin installed since then is `installed`. */
  statusOf(id: string): PluginStatus {
    return this.#statuses.get(id) ?? 'installed';
  }

  /** Forgets the status of a plugin that was removed, or installed anew. */
  forget(id: string): void {
    this.#statuses.delete(id);
  }

  /**
   * PluginInfo of one plugin from its manifest and record. `signerRevoked` is added when the key
   * that signed the installed version is on the store's revocation list now: the plugin keeps
   * running, and the manager marks it (decisions section 8).
   */
  infoOf(manifest: PluginManifest, record: PluginRecord | undefined, hasRollback: boolean): PluginInfo {
    const signer = record?.signer?.keyId;
    return {
      id: manifest.id,
      name: manifest.name,
      version: manifest.version,
      status: this.statusOf(manifest.id),
      enabled: record?.enabled ?? false,
      hasRollback,
      ...(signer !== undefined && this.#revocation.revokedKeyIds().has(signer) ? { signerRevoked: true as const } : {}),
    };
  }

  /** Every installed plugin, sorted by id. */
  async list(): Promise<PluginInfo[]> {
    const folders = await readPluginFolders(this.#context.paths, this.#context.logger);
    const infos: PluginInfo[] = [];
    for (const manifest of await this.#manifests(folders.installed)) {
      const hasRollback = (folders.snapshots.get(manifest.id)?.length ?? 0) > 0;
      infos.push(this.infoOf(manifest, this.#records.get(manifest.id), hasRollback));
    }
    return infos;
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
