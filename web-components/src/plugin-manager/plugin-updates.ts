/**
 * The update flow shared by `<plugin-manager>` and `<plugin-store>` (decisions section 8): the list
 * of available updates, "check now", an update with consent for added permissions, rollback,
 * restart, and which installed versions wait for a restart. One instance per launcher page, given
 * to both elements, so an update started in the store shows as "restart to apply" in the manager.
 */
import type { AddedPermission, AvailableUpdate, PluginInfo, UpdatesSnapshot } from '@plughost/host-sdk/core';
import { BackendRequestError, backendJson, messageOf, type LauncherBackendSource } from './backend-request.js';
import { consentRequiredPermissions, readUpdateList } from './update-data.js';

/** The list of updates as last read. */
export interface PluginUpdatesState {
  /** `idle` before the first read, then `loading`, `ready` or `error`. */
  readonly status: 'idle' | 'loading' | 'ready' | 'error';
  /** When the backend last asked the store, or null. */
  readonly checkedAt: string | null;
  readonly updates: readonly AvailableUpdate[];
  /** True while "Check for updates" runs. */
  readonly checking: boolean;
  /** The message of the last failed read or check, or null. */
  readonly error: string | null;
  /** The code of that failure (the backend's, or `NETWORK_ERROR`), or null. */
  readonly errorCode: string | null;
}

/** What one plugin's update or rollback is doing. */
export type PluginUpdateProgress =
  | { readonly phase: 'consent'; readonly version: string }
  | { readonly phase: 'installing'; readonly version: string }
  | { readonly phase: 'rolling-back' }
  | { readonly phase: 'failed'; readonly action: 'update' | 'rollback'; readonly code: string; readonly message: string };

/** A version written to disk that the running launcher has not loaded yet. */
export interface PendingRestart {
  /** The version the launcher runs now (loaded at start). */
  readonly loadedVersion: string;
  /** The version installed on disk, loaded at the next restart. */
  readonly version: string;
}

/** What the consent step is asked. */
export interface UpdateConsentRequest {
  readonly update: AvailableUpdate;
  /** The permissions to consent to: the list's, or the backend's after a 409 `CONSENT_REQUIRED`. */
  readonly added: readonly AddedPermission[];
}

/** A failed update or rollback: the backend's code and message. */
export interface PluginUpdateFailure {
  readonly kind: 'failed';
  readonly code: string;
  readonly message: string;
}

/** The outcome of {@link PluginUpdates.update}; `version` is the one now on disk. */
export type PluginUpdateResult =
  | { readonly kind: 'updated'; readonly version: string; readonly plugin: PluginInfo }
  | { readonly kind: 'cancelled' }
  | PluginUpdateFailure;

/** The outcome of {@link PluginUpdates.rollback}; `busy` when an update or rollback of the plugin runs. */
export type PluginRollbackResult =
  | { readonly kind: 'rolled-back'; readonly version: string; readonly plugin: PluginInfo }
  | { readonly kind: 'busy' }
  | PluginUpdateFailure;

/** What the caller knows of the plugin before an update or rollback. */
export interface PluginActionOptions {
  /**
   * The plugin's `PluginInfo.restartPending` before the action. When it is `true`, the backend
   * reports the field, so its answer alone decides whether the new version waits for the restart
   * (a rollback to what the launcher runs leaves nothing waiting, even after the page reloaded).
   */
  readonly restartPending?: boolean | undefined;
}

/** Options of {@link PluginUpdates}. */
export interface PluginUpdatesOptions {
  /** The local backend (read at every request, so a changed token is picked up). */
  readonly source: LauncherBackendSource | (() => LauncherBackendSource);
  /**
   * Runs after `POST /api/launcher/restart` was accepted. Default: reload the page, which the
   * backend expects (decisions section 4).
   */
  readonly afterRestart?: () => void;
}

/** How often one update may come back with new permissions before the flow gives up. */
const MAX_CONSENT_ROUNDS = 3;

/** The message and code of a failure, as the state keeps them. */
function failureOf(error: unknown): { readonly error: string; readonly errorCode: string } {
  return { error: messageOf(error), errorCode: error instanceof BackendRequestError ? error.code : 'INTERNAL_ERROR' };
}

function idPath(id: string): string {
  return `/api/plugins/${encodeURIComponent(id)}`;
}

/**
 * The update flow against the local backend. Fires `change` (a plain `Event`) whenever anything it
 * reports changes; elements re-render then.
 *
 * @example
 * ```ts
 * const updates = new PluginUpdates({ source: { url: backendUrl, token } });
 * manager.updates = updates;
 * store.updates = updates;
 * ```
 */
export class PluginUpdates extends EventTarget {
  #state: PluginUpdatesState = { status: 'idle', checkedAt: null, updates: [], checking: false, error: null, errorCode: null };
  readonly #progress = new Map<string, PluginUpdateProgress>();
  readonly #pending = new Map<string, PendingRestart>();
  /** True once the backend was seen reporting `restartPending`: its answers then say what waits. */
  #backendReportsPending = false;
  /** The request of the shown list: a newer read replaces an older one still running. */
  #read: AbortController | null = null;

  constructor(private readonly options: PluginUpdatesOptions) {
    super();
  }

  /** The list of updates as last read. */
  get state(): PluginUpdatesState {
    return this.#state;
  }

  /**
   * The update offered for plugin `id`, or undefined. An update whose version is already
   * installed and waits for the restart is not offered again.
   */
  updateFor(id: string): AvailableUpdate | undefined {
    const update = this.#state.updates.find((item) => item.id === id);
    if (!update) return undefined;
    return this.#pending.get(id)?.version === update.latestVersion ? undefined : update;
  }

  /** What plugin `id`'s update or rollback is doing, or undefined when nothing runs or failed. */
  progressOf(id: string): PluginUpdateProgress | undefined {
    return this.#progress.get(id);
  }

  /** The version of plugin `id` that waits for a restart, or undefined. */
  pendingRestart(id: string): PendingRestart | undefined {
    return this.#pending.get(id);
  }

  /** Reads the list once, unless it was read or is being read. */
  ensureLoaded(): void {
    if (this.#state.status === 'idle') void this.refresh();
  }

  /** Reads `GET /api/plugins/updates`; a failure is kept in `state.error`. */
  async refresh(): Promise<void> {
    this.#read?.abort();
    const controller = new AbortController();
    this.#read = controller;
    this.#setState({ status: this.#state.status === 'ready' ? 'ready' : 'loading' });
    try {
      const list = readUpdateList(await backendJson(this.#source(), '/api/plugins/updates', { signal: controller.signal }));
      if (controller.signal.aborted) return;
      this.#setList(list);
    } catch (error) {
      if (controller.signal.aborted) return;
      this.#setState({ status: this.#state.status === 'ready' ? 'ready' : 'error', ...failureOf(error) });
    } finally {
      if (this.#read === controller) this.#read = null;
    }
  }

  /** "Check for updates": `POST /api/plugins/updates/check`, then the new list. */
  async check(): Promise<void> {
    if (this.#state.checking) return;
    this.#setState({ checking: true, error: null, errorCode: null });
    try {
      const answer = await backendJson(this.#source(), '/api/plugins/updates/check', { method: 'POST' });
      this.#read?.abort();
      let list: UpdatesSnapshot;
      try {
        list = readUpdateList(answer);
      } catch {
        // The check may answer without the list (202): read it.
        list = readUpdateList(await backendJson(this.#source(), '/api/plugins/updates'));
      }
      this.#setList(list);
    } catch (error) {
      this.#setState(failureOf(error));
    } finally {
      this.#setState({ checking: false });
    }
  }

  /**
   * Installs the listed update of plugin `id`. When the new version adds permissions, `confirm`
   * is asked first (and again with the backend's list when it answers 409 `CONSENT_REQUIRED`,
   * for example because the update changed meanwhile); the update runs only after a yes, with
   * those permissions in `acceptPermissions`.
   */
  async update(id: string, confirm: (request: UpdateConsentRequest) => Promise<boolean>, options: PluginActionOptions = {}): Promise<PluginUpdateResult> {
    const update = this.updateFor(id);
    if (!update) return this.#fail(id, 'update', 'NO_UPDATE', `No update is available for ${id}.`);
    const running = this.#progress.get(id);
    if (running && running.phase !== 'failed') return { kind: 'cancelled' };
    const accepted = new Set<string>();
    let ask: readonly AddedPermission[] = update.addedPermissions;
    for (let round = 0; round < MAX_CONSENT_ROUNDS; round += 1) {
      if (ask.length > 0) {
        this.#setProgress(id, { phase: 'consent', version: update.latestVersion });
        let agreed = false;
        try {
          agreed = await confirm({ update, added: ask });
        } catch {
          agreed = false;
        }
        if (!agreed) {
          this.#setProgress(id, undefined);
          return { kind: 'cancelled' };
        }
        for (const permission of ask) accepted.add(permission.id);
      }
      this.#setProgress(id, { phase: 'installing', version: update.latestVersion });
      try {
        const body = { version: update.latestVersion, ...(accepted.size > 0 ? { acceptPermissions: [...accepted] } : {}) };
        const plugin = await backendJson<PluginInfo>(this.#source(), `${idPath(id)}/update`, { method: 'POST', json: body });
        const version = typeof plugin?.version === 'string' ? plugin.version : update.latestVersion;
        this.#markInstalled(id, update.currentVersion, version, plugin, options);
        this.#setState({ updates: this.#state.updates.filter((item) => item.id !== id) });
        this.#setProgress(id, undefined);
        return { kind: 'updated', version, plugin };
      } catch (error) {
        const added = error instanceof BackendRequestError && error.code === 'CONSENT_REQUIRED' ? consentRequiredPermissions(error.body) : null;
        if (added?.some((permission) => !accepted.has(permission.id))) {
          // Show the backend's list: it is the one the install will be checked against.
          ask = added;
          continue;
        }
        const { errorCode, error: message } = failureOf(error);
        return this.#fail(id, 'update', errorCode, message);
      }
    }
    return this.#fail(id, 'update', 'CONSENT_REQUIRED', `The update of ${id} kept asking for new permissions; check for updates and try again.`);
  }

  /**
   * Rolls plugin `id` back to its snapshot (`POST /api/plugins/<id>/rollback`).
   *
   * @param installedVersion - The version on disk now (the card's), remembered as the one running
   *   when no update of this page is waiting for a restart.
   */
  async rollback(id: string, installedVersion: string, options: PluginActionOptions = {}): Promise<PluginRollbackResult> {
    const running = this.#progress.get(id);
    if (running && running.phase !== 'failed') return { kind: 'busy' };
    this.#setProgress(id, { phase: 'rolling-back' });
    try {
      const plugin = await backendJson<PluginInfo>(this.#source(), `${idPath(id)}/rollback`, { method: 'POST' });
      const version = typeof plugin?.version === 'string' ? plugin.version : installedVersion;
      this.#markInstalled(id, installedVersion, version, plugin, options);
      this.#setProgress(id, undefined);
      // The version rolled back from may be offered again.
      void this.refresh();
      return { kind: 'rolled-back', version, plugin };
    } catch (error) {
      const { errorCode, error: message } = failureOf(error);
      return this.#fail(id, 'rollback', errorCode, message);
    }
  }

  /** `POST /api/launcher/restart`, then `afterRestart` (by default the page reloads). */
  async restart(): Promise<void> {
    await backendJson(this.#source(), '/api/launcher/restart', { method: 'POST' });
    this.#pending.clear();
    this.#changed();
    (this.options.afterRestart ?? (() => location.reload()))();
  }

  /** Forgets a failure shown for plugin `id`. */
  dismissFailure(id: string): void {
    if (this.#progress.get(id)?.phase === 'failed') this.#setProgress(id, undefined);
  }

  #source(): LauncherBackendSource {
    const { source } = this.options;
    return typeof source === 'function' ? source() : source;
  }

  /** Records that `version` is on disk while the launcher runs what it loaded at start. */
  #markInstalled(id: string, versionBefore: string, version: string, answer: PluginInfo | null, options: PluginActionOptions): void {
    const loadedVersion = this.#pending.get(id)?.loadedVersion ?? versionBefore;
    const reported = answer?.restartPending === true;
    if (reported || options.restartPending === true) this.#backendReportsPending = true;
    // The backend compares with what the launcher loaded, which this page may not have seen
    // (it reloaded since); a backend without the field leaves it to the versions known here.
    const waits = this.#backendReportsPending ? reported : version !== loadedVersion;
    // Back to what runs (an update rolled back before restarting): nothing waits any more.
    if (waits) this.#pending.set(id, { loadedVersion, version });
    else this.#pending.delete(id);
  }

  #fail(id: string, action: 'update' | 'rollback', code: string, message: string): PluginUpdateFailure {
    this.#setProgress(id, { phase: 'failed', action, code, message });
    return { kind: 'failed', code, message };
  }

  #setList(list: UpdatesSnapshot): void {
    this.#setState({ status: 'ready', checkedAt: list.checkedAt, updates: list.updates, error: null, errorCode: null });
  }

  #setProgress(id: string, progress: PluginUpdateProgress | undefined): void {
    if (progress) this.#progress.set(id, progress);
    else this.#progress.delete(id);
    this.#changed();
  }

  #setState(change: Partial<PluginUpdatesState>): void {
    this.#state = { ...this.#state, ...change };
    this.#changed();
  }

  #changed(): void {
    this.dispatchEvent(new Event('change'));
  }
}
