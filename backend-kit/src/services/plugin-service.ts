import { readFile } from 'node:fs/promises';
import { rm } from './filesystem/changes.js';
import { join } from 'node:path';
import { PluginHostError, type PluginManifest, type PluginStoreRecord, readManifest } from '@plughost/host-sdk/core';
import { resolvePackageLimits, type PackageLimits } from '../package/limits.js';
import { openPluginPackage } from '../package/open-plugin-package.js';
import { readInstalledManifest } from './installed-manifest.js';
import { copyDevelopmentFolder } from './plugins/copy-development-folder.js';
import { assertDependenciesInstalled } from './plugins/dependency-check.js';
import { inspectPackage, type PackageInspection } from './plugins/inspect-package.js';
import { installStaged, type InstallOutcome, type InstallRequestOptions, type StagedVersion } from './plugins/install-staged.js';
import { PluginCatalog, type PluginListOptions } from './plugins/plugin-catalog.js';
import { isRealDirectory, readPluginFolders } from './plugins/plugin-folders.js';
import { permissionsOf, type ListedPluginInfo, type PermissionSummary, type PluginInfo, type PluginStatus } from './plugins/plugin-info.js';
import { PluginRecordStore } from './plugins/plugin-records.js';
import { recoverTransactions } from './plugins/recover-transactions.js';
import { rollbackPlugin } from './plugins/rollback-plugin.js';
import type { PluginServiceEnv, PluginStorage } from './plugins/service-env.js';
import { reachedStep } from './plugins/transaction-faults.js';
import type { FileAuthorizations } from './filesystem/file-authorizations.js';
import { assertFolderSignerNotRevoked } from './revocation/folder-signature.js';
import type { RevocationService } from './revocation/revocation-service.js';
import type { StoreOrigins } from './store/store-origins.js';
import { uninstallPlugin } from './plugins/uninstall-plugin.js';

export type { PackageInspection } from './plugins/inspect-package.js';
export type { ListedPluginInfo, PermissionSummary, PluginInfo, PluginStatus } from './plugins/plugin-info.js';
export type { PluginListOptions } from './plugins/plugin-catalog.js';

export type { PluginStorage } from './plugins/service-env.js';

/** What the plugin service needs (see {@link createPluginService}). */
export interface PluginServiceDependencies extends PluginStorage {
  /** The trusted store root public key; uploaded packages must carry a certificate issued by it. */
  readonly rootPublicKey: string | Uint8Array;
  /** Overrides of the package reader's limits. */
  readonly packageLimits?: Partial<PackageLimits> | undefined;
  /** The store's list of revoked developer keys, checked by every install. */
  readonly revocation: RevocationService;
  /** The backend's file consent: an uninstall forgets what the user agreed to for the plugin. */
  readonly authorizations: Pick<FileAuthorizations, 'revokeAll'>;
  /**
   * Where store-installed plugins came from (`backend/store-origins.json`): PluginInfo's `store`.
   * Every install updates it (a file install takes its version out), an uninstall removes it.
   */
  readonly origins: StoreOrigins;
}

/** PluginInfo of a plugin just installed, with what it is allowed to do. */
export interface InstalledPlugin extends PluginInfo {
  /** Highest risk first; `render:inline` is listed as danger. */
  readonly permissions: readonly PermissionSummary[];
}

/** Options of the install methods. */
export interface InstallOptions {
  /** Enable the plugin (effective at the next restart). A first install is disabled otherwise; an overwrite keeps its state. */
  enable?: boolean;
  /** Let an older version overwrite the installed one; refused with `DOWNGRADE_REFUSED` otherwise. */
  allowDowngrade?: boolean;
}

/** Options of {@link PluginService.installPackage}. */
export interface InstallPackageOptions extends InstallOptions {
  /** `required` (default; manual upload) or `if-present` (store install of legacy unsigned versions). */
  signaturePolicy?: 'required' | 'if-present';
  /**
   * The store the package was downloaded from (store install, update). Without it the package
   * counts as a file: the installed version has no `store` and is not checked for updates.
   */
  storeOrigin?: PluginStoreRecord;
  /**
   * Judges the opened package before anything is staged (store installs: the listing, the source's
   * signature rule, the user's consent); throwing refuses it with nothing installed. The package
   * is opened and verified once, and what this saw is exactly what gets installed.
   */
  vet?: (opened: VettedPackage) => void | Promise<void>;
}

/** What {@link InstallPackageOptions.vet} is shown of an opened, verified package. */
export interface VettedPackage {
  readonly manifest: PluginManifest;
  /** `true` when a valid signature covers it; `false` for an unsigned package (the `if-present` policy). */
  readonly signed: boolean;
}

/** The answer of `PUT /api/plugins/<id>/state`. */
export interface PluginStateChange {
  readonly id: string;
  readonly enabled: boolean;
  /** Unchanged: the new state applies at the next restart. */
  readonly status: PluginStatus;
  readonly restartRequired: true;
}

/**
 * The plugin lifecycle of the local backend: install (package or development folder), enable and
 * disable, overwrite with snapshot, rollback, uninstall, and restart. Every change to a plugin's
 * folder holds that plugin's lock; installs and rollbacks are crash-safe transactions.
 */
export interface PluginService {
  /**
   * Every installed plugin, sorted by id (snapshots and unreadable folders are never listed); with
   * `manifests`, each `active` one carries its manifest.
   */
  list(options?: PluginListOptions): Promise<ListedPluginInfo[]>;
  /**
   * Installs or overwrites from a package file (upload, store install). No dependency check.
   *
   * @throws PluginHostError `INVALID_PACKAGE`, `UNSAFE_ENTRY_PATH`, `PACKAGE_TOO_LARGE`,
   *   `INVALID_MANIFEST`, `SIGNATURE_INVALID` (also for a key on the store's revocation list),
   *   `SIGNER_CHANGED`, `DOWNGRADE_REFUSED`.
   */
  installPackage(archivePath: string, options?: InstallPackageOptions): Promise<InstalledPlugin>;
  /**
   * Installs or overwrites from a development folder (absolute path holding `manifest.json`).
   * Signatures are not checked, except that signature files naming a revoked developer key refuse
   * the folder; required dependencies must be installed.
   *
   * @throws PluginHostError as {@link PluginService.installPackage}, plus `DEPENDENCY_MISSING`
   *   and `INVALID_ARGUMENT` for a bad `sourceDir`.
   */
  installDirectory(sourceDir: string, options?: InstallOptions): Promise<InstalledPlugin>;
  /** Reads a package for the install dialog without installing it. */
  inspectPackage(archivePath: string): Promise<PackageInspection>;
  /** Records the user's choice; the status changes at the next restart. @throws `PLUGIN_NOT_FOUND`. */
  setEnabled(id: string, enabled: boolean): Promise<PluginStateChange>;
  /** Restores the snapshot of the last overwrite. @throws `PLUGIN_NOT_FOUND`, `ROLLBACK_NOT_AVAILABLE`. */
  rollback(id: string): Promise<PluginInfo>;
  /** Removes the plugin's folder, snapshots, record and store origin. @throws `PLUGIN_NOT_FOUND`. */
  uninstall(id: string): Promise<void>;
  /**
   * Re-reads the state from disk and recomputes every status (launcher restart); what it reads is
   * what the launcher loads, so `restartPending` is cleared.
   */
  reload(): Promise<void>;
  /** True when the user disabled `id`: none of its code may run (frontend, WASM), effective at once. */
  isDisabledByUser(id: string): boolean;
}

function requestOf(options: InstallOptions): InstallRequestOptions {
  return { enable: options.enable === true, allowDowngrade: options.allowDowngrade === true };
}

class LocalPluginService implements PluginService {
  readonly #deps: PluginServiceDependencies;
  readonly #env: PluginServiceEnv;
  readonly #catalog: PluginCatalog;

  constructor(deps: PluginServiceDependencies, records: PluginRecordStore) {
    this.#deps = deps;
    // The fault hook is looked up by this instance, so a test arms exactly one backend.
    this.#env = { context: deps, records, revocation: deps.revocation, reachedStep: (state) => reachedStep(this, state) };
    this.#catalog = new PluginCatalog(deps, records, deps.revocation, deps.origins);
  }

  /** Recovery of interrupted transactions, then the first read of the state. */
  async start(): Promise<void> {
    await recoverTransactions(this.#env);
    const { installed } = await readPluginFolders(this.#env.context.paths, this.#env.context.logger);
    const stale = this.#env.records.ids().filter((id) => !installed.includes(id));
    if (stale.length > 0) await this.#env.records.removeMany(stale);
    await this.#deps.origins.keepOnly(installed);
    await this.#catalog.read();
  }

  list(options?: PluginListOptions): Promise<ListedPluginInfo[]> {
    return this.#catalog.list(options);
  }

  isDisabledByUser(id: string): boolean {
    return this.#env.records.get(id)?.disabledByUser === true;
  }

  async installPackage(archivePath: string, options: InstallPackageOptions = {}): Promise<InstalledPlugin> {
    const context = this.#deps;
    const opened = await openPluginPackage(archivePath, {
      workDirectory: context.paths.temporary,
      signaturePolicy: options.signaturePolicy ?? 'required',
      // The list in force now: a refresh that lands later applies to the next install.
      trust: { rootPublicKey: context.rootPublicKey, revokedKeyIds: this.#env.revocation.revokedKeyIds() },
      ...(context.packageLimits ? { limits: context.packageLimits } : {}),
    });
    try {
      const signer = opened.signature.status === 'valid' ? opened.signature.signer : undefined;
      await options.vet?.({ manifest: opened.manifest, signed: signer !== undefined });
      const staged: StagedVersion = {
        directory: opened.directory,
        manifest: opened.manifest,
        signer: signer ? { keyId: signer.keyId, ...(signer.developerId !== undefined ? { developerId: signer.developerId } : {}) } : undefined,
      };
      return await this.#installed(await installStaged(this.#env, staged, requestOf(options)), options.storeOrigin);
    } finally {
      await opened.dispose();
    }
  }

  async installDirectory(sourceDir: string, options: InstallOptions = {}): Promise<InstalledPlugin> {
    const context = this.#deps;
    const copied = await copyDevelopmentFolder(sourceDir, {
      workDirectory: context.paths.temporary,
      dataDirectory: context.paths.root,
      limits: resolvePackageLimits(context.packageLimits),
    });
    try {
      // The copy is validated, not the source, so what is checked is exactly what gets installed.
      const { manifest } = readManifest(await readFile(join(copied.directory, 'manifest.json')), { files: copied.files });
      await assertFolderSignerNotRevoked(copied.directory, this.#env.revocation.revokedKeyIds());
      await assertDependenciesInstalled(context.paths, manifest);
      const staged: StagedVersion = { directory: copied.directory, manifest, signer: undefined };
      return await this.#installed(await installStaged(this.#env, staged, requestOf(options)), undefined);
    } finally {
      await rm(copied.directory, { recursive: true, force: true, maxRetries: 3 });
    }
  }

  inspectPackage(archivePath: string): Promise<PackageInspection> {
    return inspectPackage(this.#deps, archivePath, this.#env.revocation.revokedKeyIds());
  }

  async setEnabled(id: string, enabled: boolean): Promise<PluginStateChange> {
    const { context, records } = this.#env;
    return context.pluginLock.run(id, async () => {
      const manifest = (await isRealDirectory(context.paths.pluginFolder(id))) ? await readInstalledManifest(context.paths, id) : null;
      if (!manifest) throw new PluginHostError('PLUGIN_NOT_FOUND', `No plugin ${id} is installed`, { pluginId: id });
      const record = records.get(id) ?? { enabled: false, disabledByUser: false, installedAt: new Date().toISOString() };
      await records.set(id, { ...record, enabled, disabledByUser: !enabled });
      return { id, enabled, status: this.#catalog.statusOf(id), restartRequired: true };
    });
  }

  async rollback(id: string): Promise<PluginInfo> {
    const { manifest, record } = await rollbackPlugin(this.#env, id);
    return this.#catalog.infoOf(manifest, record, false);
  }

  async uninstall(id: string): Promise<void> {
    await uninstallPlugin(this.#env, id);
    this.#catalog.forget(id);
    await this.#deps.origins.forget(id);
    await this.#deps.authorizations.revokeAll(id);
  }

  reload(): Promise<void> {
    return this.#catalog.read();
  }

  async #installed(outcome: InstallOutcome, storeOrigin: PluginStoreRecord | undefined): Promise<InstalledPlugin> {
    const { id, version } = outcome.manifest;
    // Recorded once the version is in place; a file install over a store install is no longer
    // the store's package, so that version loses its origin (and its update checks).
    if (storeOrigin) await this.#deps.origins.record(id, storeOrigin, version);
    else await this.#deps.origins.recordFileInstall(id, version);
    // A first install starts as `installed` whatever was there before; an overwrite keeps its status.
    if (!outcome.replaced) this.#catalog.forget(id);
    return {
      ...this.#catalog.infoOf(outcome.manifest, outcome.record, outcome.hasRollback),
      permissions: permissionsOf(outcome.manifest),
    };
  }
}

/**
 * Creates the plugin service on the backend's data folder; `deps.revocation` is the store's list
 * of revoked developer keys, checked by every install. Before it returns, transactions a
 * crash interrupted are undone (the previous version of each plugin is back in place), leftovers
 * in `backend/tmp/` are removed, records of plugins no longer on disk are dropped, and every
 * plugin's status is computed.
 */
export async function createPluginService(deps: PluginServiceDependencies): Promise<PluginService> {
  const records = await PluginRecordStore.load(deps.paths, deps.logger);
  const service = new LocalPluginService(deps, records);
  await service.start();
  return service;
}
