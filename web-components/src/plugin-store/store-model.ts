/** The store browser's values and the pure rules over them (no DOM, no requests). */
import { registryFailureOf } from '@plughost/host-sdk/core';
import type { StoreInstalledPlugin } from '../plugin-store.js';
import { BackendRequestError } from '../plugin-manager/backend-request.js';
import { isStoreDisabledError } from './store-sources.js';
import { STORE_SORTS, type StorePage, type StorePlugin, type StorePluginDetail, type StoreSort } from './registry-client.js';

/** Why a list or detail request failed, as shown. */
export interface Failure {
  readonly title: string;
  readonly message: string;
  /** No store source is usable: the store shows its disabled state, not a registry's error. */
  readonly storeDisabled?: boolean;
}

/** The list of cards: nothing configured, loading (keeping the page shown before), shown, or failed. */
export type ListState =
  | { readonly status: 'idle' }
  | { readonly status: 'loading'; readonly previous?: StorePage }
  | { readonly status: 'ready'; readonly page: StorePage }
  | { readonly status: 'error'; readonly failure: Failure };

/** The open detail panel. */
export interface DetailState {
  readonly slug: string;
  /** The card's data, shown while the detail loads. */
  readonly summary?: StorePlugin;
  readonly status: 'loading' | 'ready' | 'error';
  readonly detail?: StorePluginDetail;
  readonly failure?: Failure;
}

/**
 * What a plugin's install button offers: install the latest version, update to the version the
 * launcher's update list names, nothing (installed, or an installed update waiting for the
 * restart), or nothing to install.
 */
export type Action =
  | { readonly kind: 'install' | 'update'; readonly version: string }
  | { readonly kind: 'installed' | 'pending'; readonly version: string }
  | { readonly kind: 'unavailable' };

/** What the launcher's update flow says about an installed plugin (see `PluginUpdates`). */
export interface InstalledUpdateState {
  /** The version `GET /api/plugins/updates` offers for the plugin id, if any. */
  offered(id: string): string | undefined;
  /** The version installed by an update that waits for the restart, if any. */
  pending(id: string): string | undefined;
}

/** The shown failure of a request. */
export function failureOf(error: unknown): Failure {
  if (isStoreDisabledError(error) && error instanceof Error) return { title: 'Store unavailable', message: error.message, storeDisabled: true };
  if (error instanceof BackendRequestError) return { title: 'The launcher backend did not say which store to use', message: error.message };
  const failure = registryFailureOf(error);
  if (failure && error instanceof Error) {
    if (failure.registryFailure === 'unreachable') return { title: 'The store cannot be reached', message: error.message };
    if (failure.registryFailure === 'registry') return { title: 'The store reported an error', message: error.message };
    return { title: 'The store’s answer was not understood', message: error.message };
  }
  return { title: 'Something went wrong', message: error instanceof Error ? error.message : String(error) };
}

export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

export function isSort(value: string): value is StoreSort {
  return (STORE_SORTS as readonly string[]).includes(value);
}

/**
 * What `plugin`'s button offers given the installed plugins. An installed plugin is offered an
 * update only when the launcher's update list names one (decisions section 8): the store's own
 * latest version may be paused or outside this installation's rollout, so it is never compared here.
 */
export function actionOf(plugin: StorePlugin, installedPlugins: readonly StoreInstalledPlugin[], updates?: InstalledUpdateState): Action {
  const latest = plugin.latestVersion ?? (plugin as Partial<StorePluginDetail>).versions?.[0]?.version;
  const installed = installedPlugins.find((entry) => entry.id === plugin.id);
  if (installed) {
    const pending = updates?.pending(plugin.id);
    if (pending !== undefined) return { kind: 'pending', version: pending };
    const offered = updates?.offered(plugin.id);
    if (offered !== undefined && offered !== String(installed.version)) return { kind: 'update', version: offered };
    // Installed since the launcher loaded its plugins (or replaced): it waits for the restart.
    return { kind: installed.restartPending === true ? 'pending' : 'installed', version: String(installed.version) };
  }
  return latest ? { kind: 'install', version: latest } : { kind: 'unavailable' };
}
