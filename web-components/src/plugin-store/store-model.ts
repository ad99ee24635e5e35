/** The store browser's values and the pure rules over them (no DOM, no requests). */
import { isNewerVersion, registryFailureOf } from '@plughost/host-sdk/core';
import type { StoreInstalledPlugin } from '../plugin-store.js';
import { STORE_SORTS, type StorePage, type StorePlugin, type StorePluginDetail, type StoreSort } from './registry-client.js';

/** Why a list or detail request failed, as shown. */
export interface Failure {
  readonly title: string;
  readonly message: string;
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

/** What a plugin's install button offers. */
export type Action =
  | { readonly kind: 'install' | 'update'; readonly version: string }
  | { readonly kind: 'installed'; readonly version: string }
  | { readonly kind: 'unavailable' };

/** The shown failure of a request. */
export function failureOf(error: unknown): Failure {
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

/** What `plugin`'s button offers given the installed plugins: install, update to the latest, or nothing. */
export function actionOf(plugin: StorePlugin, installedPlugins: readonly StoreInstalledPlugin[]): Action {
  const latest = plugin.latestVersion ?? (plugin as Partial<StorePluginDetail>).versions?.[0]?.version;
  const installed = installedPlugins.find((entry) => entry.id === plugin.id);
  if (installed) {
    if (latest && isNewerVersion(latest, String(installed.version))) return { kind: 'update', version: latest };
    return { kind: 'installed', version: String(installed.version) };
  }
  return latest ? { kind: 'install', version: latest } : { kind: 'unavailable' };
}
