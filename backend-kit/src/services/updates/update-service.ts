import {
  type AvailableUpdate,
  type CheckUpdatesRequest,
  PluginHostError,
  isNewerVersion,
  isPluginHostError,
  pinnedSources,
  type PluginInfo,
  type RegistrySources,
  type RegistryTimer,
  type UpdatesSnapshot,
} from '@plughost/host-sdk/core';
import type { DataPaths } from '../../config/data-paths.js';
import type { BackendLogger } from '../../http/logger.js';
import { readInstalledManifest } from '../installed-manifest.js';
import type { LauncherSettingsStore } from '../launcher-settings/launcher-settings-store.js';
import type { PluginService } from '../plugin-service.js';
import type { RevocationService } from '../revocation/revocation-service.js';
import type { StoreInstaller } from '../store/store-installer.js';
import type { StoreOrigins } from '../store/store-origins.js';
import { offersOf, type CheckedPlugin } from './available-updates.js';
import { checkRecordedSources, isAskableSource, type CheckBatch } from './recorded-source-checks.js';

/** The wire shapes live in the core, shared with the launcher's UI. */
export type { AvailableUpdate, UpdatesSnapshot } from '@plughost/host-sdk/core';

/** What `POST /api/plugins/<id>/update` asks for. */
export interface UpdateRequest {
  /** The exact version to install (the offer's `latestVersion`). */
  readonly version: string;
  /** Permission ids the user accepted in the consent dialog. */
  readonly acceptPermissions: readonly string[];
}

/** What the update service needs. */
export interface UpdateServiceDependencies {
  readonly paths: DataPaths;
  readonly logger: BackendLogger;
  readonly plugins: Pick<PluginService, 'list'>;
  readonly origins: StoreOrigins;
  readonly sources: RegistrySources;
  readonly settings: LauncherSettingsStore;
  readonly revocation: Pick<RevocationService, 'refresh'>;
  readonly store: StoreInstaller;
  /**
   * A store installer whose store reads all go to `source` alone (the core's `pinnedSources`): the
   * update of a plugin that only its recorded source offered downloads from that source.
   */
  readonly storeFrom: (source: string) => StoreInstaller;
  /** Sent in check-updates (`launcherVersion`). */
  readonly launcherVersion: string;
  /** Clock and timers of the schedule; default the platform's. */
  readonly timer: RegistryTimer;
  /**
   * True for a plugin a dev server serves now (development mode): it is neither checked nor
   * offered an update, whatever is installed under its id. Default none.
   */
  readonly isDevPlugin?: (id: string) => boolean;
}

/** Update checks and the upgrade pipeline; see {@link createUpdateService}. */
export interface UpdateService {
  /** The offers of the last check, for the versions installed now. */
  snapshot(): Promise<UpdatesSnapshot>;
  /**
   * Checks now: discovers the sources again, refreshes the revocation list, and asks the active
   * source (with fallback) about every store-installed plugin; the plugins it offers nothing for
   * are asked of their recorded source too, when that is another enabled and usable source
   * (decisions section 12). A check already running is joined.
   *
   * @throws PluginHostError `STORE_NOT_CONFIGURED`, `STORE_UNAVAILABLE` (the previous offers stay).
   */
  check(): Promise<UpdatesSnapshot>;
  /**
   * Updates `id` to `request.version` from its store: download (url and mirror race, SHA-256),
   * signature (revocation list and signer continuity), consent for added permissions, snapshot
   * and overwrite. The new version runs after the launcher restarts. It downloads from the source
   * that offered that version at the last check: an offer of the plugin's recorded source alone
   * from that source only; otherwise the active source (with fallback) and, when that has no such
   * version, the recorded source, as a check would ask them.
   *
   * @throws PluginHostError `PLUGIN_NOT_FOUND`, `INVALID_ARGUMENT` (installed from a file),
   *   `CONSENT_REQUIRED`, `STORE_UNAVAILABLE` (also when the source that offered it is no longer
   *   usable), and everything a store install throws.
   */
  update(id: string, request: UpdateRequest, signal?: AbortSignal): Promise<PluginInfo>;
  /** Resolves when no check is running (the next one is scheduled by then). */
  whenIdle(): Promise<void>;
  /** Checks once now (in the background) and then every `updateCheckHours`. */
  start(): void;
  /** Stops the schedule. */
  close(): void;
}

const HOUR_MS = 60 * 60 * 1000;

/**
 * Creates the update service of a backend (decisions section 8). Only plugins installed from a
 * store are checked (their `{source, slug}` record); the rollout bucket of this installation
 * decides which offers are shown; the schedule runs on `timer`, so tests move time themselves.
 */
export function createUpdateService(deps: UpdateServiceDependencies): UpdateService {
  const { logger, paths, timer } = deps;
  // Each offer with the source it must be downloaded from (`null`: the active one, with fallback).
  let offers: readonly { readonly offer: AvailableUpdate; readonly pinnedSource: string | null }[] = [];
  let checkedAt: string | null = null;
  let running: Promise<UpdatesSnapshot> | null = null;
  let handle: unknown;
  let started = false;
  let lastCheckAt = timer.now();
  const isDevPlugin = deps.isDevPlugin ?? (() => false);

  /** Installed plugins that came from a store, with their slugs. */
  async function storeInstalled(): Promise<CheckedPlugin[]> {
    const installed = await deps.plugins.list();
    await deps.origins.keepOnly(installed.map((plugin) => plugin.id));
    const checked: CheckedPlugin[] = [];
    for (const plugin of installed) {
      if (isDevPlugin(plugin.id)) continue;
      const origin = deps.origins.originOf(plugin.id, plugin.version);
      const manifest = origin ? await readInstalledManifest(paths, plugin.id) : null;
      if (origin && manifest) checked.push({ id: plugin.id, slug: origin.slug, source: origin.source, manifest });
    }
    return checked;
  }

  async function snapshot(): Promise<UpdatesSnapshot> {
    const current: AvailableUpdate[] = [];
    for (const { offer } of offers) {
      if (isDevPlugin(offer.id)) continue;
      const manifest = await readInstalledManifest(paths, offer.id);
      // Updated (or removed) since the check: no longer offered; rolled back: offered again.
      if (manifest && isNewerVersion(offer.latestVersion, manifest.version)) current.push({ ...offer, currentVersion: manifest.version });
    }
    return { checkedAt, updates: current };
  }

  async function runCheck(): Promise<UpdatesSnapshot> {
    lastCheckAt = timer.now();
    await deps.sources.discover();
    // The revocation list is refreshed at each check; its failures never fail the check.
    await deps.revocation.refresh();
    const plugins = await storeInstalled();
    const next: { offer: AvailableUpdate; pinnedSource: string | null }[] = [];
    if (plugins.length > 0) {
      const requestFor = (checked: readonly CheckedPlugin[]): CheckUpdatesRequest => ({
        launcherVersion: deps.launcherVersion,
        installed: checked.map((plugin) => ({ slug: plugin.slug, version: plugin.manifest.version })),
      });
      const answered = await deps.sources.read((client, signal) => client.checkUpdates(requestFor(plugins), { signal }));
      const batches: CheckBatch[] = [
        { items: answered.value.updates, plugins, pinnedSource: null },
        ...(await checkRecordedSources({ sources: deps.sources, logger, requestFor }, plugins, answered)),
      ];
      for (const { items, plugins: asked, pinnedSource } of batches) {
        // The permissions an offer adds come from the detail of the source that made it.
        const detailFrom = pinnedSource === null ? deps.sources : pinnedSources(deps.sources, pinnedSource);
        for (const offer of await offersOf(items, asked, deps.settings.get().installationId, detailFrom)) next.push({ offer, pinnedSource });
      }
    }
    offers = next;
    checkedAt = new Date(timer.now()).toISOString();
    logger.info('Checked for plugin updates', { checked: plugins.length, offered: offers.length });
    return snapshot();
  }

  function check(): Promise<UpdatesSnapshot> {
    running ??= runCheck().finally(() => {
      running = null;
      if (started) schedule();
    });
    return running;
  }

  function schedule(): void {
    timer.clearTimeout(handle);
    const interval = deps.settings.get().updateCheckHours * HOUR_MS;
    const delay = Math.max(0, lastCheckAt + interval - timer.now());
    handle = timer.setTimeout(() => {
      handle = undefined;
      check().catch((error: unknown) => {
        logger.warn('The scheduled update check failed; the next one runs as planned', { error: error instanceof Error ? error.message : String(error) });
      });
    }, delay);
  }

  deps.settings.onChange((next, previous) => {
    if (started && next.updateCheckHours !== previous.updateCheckHours && !running) schedule();
  });

  return {
    snapshot,
    check,
    async update(id, request, signal) {
      const manifest = await readInstalledManifest(paths, id);
      if (!manifest) throw new PluginHostError('PLUGIN_NOT_FOUND', `No plugin ${id} is installed`, { pluginId: id });
      const origin = deps.origins.originOf(id, manifest.version);
      if (!origin) {
        throw new PluginHostError(
          'INVALID_ARGUMENT',
          `${id} ${manifest.version} was installed from a file, not from a store, so it has no store updates; install it from a store first`,
          { pluginId: id },
        );
      }
      const order = {
        slug: origin.slug,
        version: request.version,
        enable: false,
        allowDowngrade: false,
        allowUnsigned: false,
        acceptPermissions: request.acceptPermissions,
      };
      const options = { signal, expectedPluginId: id, purpose: 'update' as const };
      const offered = offers.find(({ offer }) => offer.id === id && offer.latestVersion === request.version);
      // Only while the plugin still comes from that source (not reinstalled from another since).
      if (offered?.pinnedSource && offered.pinnedSource === origin.source) return deps.storeFrom(offered.pinnedSource).install(order, options);
      try {
        return await deps.store.install(order, options);
      } catch (error) {
        // Not offered at the last check (none yet, or another version): the check's rule applies.
        const active = deps.sources.status().find((source) => source.active)?.url;
        if (offered || !isPluginHostError(error, 'PLUGIN_NOT_FOUND') || origin.source === active || !isAskableSource(deps.sources, origin.source)) throw error;
        return deps.storeFrom(origin.source).install(order, options);
      }
    },
    whenIdle() {
      return running
        ? running.then(
            () => undefined,
            () => undefined,
          )
        : Promise.resolve();
    },
    start() {
      if (started) return;
      started = true;
      check().catch((error: unknown) => {
        logger.warn('The update check after start failed; the next one runs as planned', { error: error instanceof Error ? error.message : String(error) });
      });
    },
    close() {
      started = false;
      timer.clearTimeout(handle);
    },
  };
}
