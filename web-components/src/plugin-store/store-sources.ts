/**
 * The launcher's store sources as the store page uses them (decisions section 8): the backend says
 * which sources exist and which are usable (`GET /api/registries`), and the page reads the catalog
 * from the registries itself (the release CSP lists every enabled source in `connect-src`) through
 * the host SDK core's source rules: the active source first and, on a timeout, a 5xx or no answer,
 * the next usable one at once. A 4xx answer is the user's, from whichever source gave it.
 */
import {
  PluginHostError,
  createRegistrySources,
  isPluginHostError,
  registryFailureOf,
  type AnsweringSource,
  type RegistryClient,
  type RegistrySourceConfig,
  type RegistrySourceStatus,
  type RegistrySources,
} from '@plughost/host-sdk/core';
import { readSourceStatuses, sourceKey } from '../launcher-settings/settings-model.js';
import { backendJson, type LauncherBackendSource } from '../plugin-manager/backend-request.js';
import type { StoreCatalog, StorePage, StorePluginDetail, StoreQuery } from './registry-client.js';

/** The source the store reads from now, as its status line shows it. */
export interface ShownSource {
  readonly url: string;
  /** `host[:port]` of the URL. */
  readonly host: string;
  /** False for a backup source. */
  readonly primary: boolean;
  /** Published plugins it announced, or null when unknown. */
  readonly pluginCount: number | null;
}

/** Why one enabled source cannot be used, for the disabled-store state. */
export interface SourceProblem {
  readonly url: string;
  readonly host: string;
  readonly reason: string;
}

/** Options of {@link StoreSources}. */
export interface StoreSourcesOptions {
  /** The local backend (read at every request, so a changed token is picked up). */
  readonly backend: () => LauncherBackendSource | undefined;
  /** Called whenever what {@link StoreSources.shown} or {@link StoreSources.problems} report may have changed. */
  readonly changed: () => void;
}

/** `host[:port]` of `url`, or `url` itself when it is not a URL. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

/** True for the error of a read that found no usable source: the disabled-store state, not a registry's error. */
export function isStoreDisabledError(error: unknown): boolean {
  return (isPluginHostError(error, 'STORE_UNAVAILABLE') || isPluginHostError(error, 'STORE_NOT_CONFIGURED')) && registryFailureOf(error) === undefined;
}

function configOf({ url, primary, priority, enabled }: RegistrySourceStatus): RegistrySourceConfig {
  return { url: sourceKey(url), primary, priority, enabled };
}

/**
 * The sources behind `<plugin-store>` when it is given the launcher backend. Reads wait for the
 * backend's status (read once, then again by {@link StoreSources.refresh} after each catalog load)
 * and go only to the sources it reports usable; with none, they fail at once with the
 * disabled-store error (`STORE_UNAVAILABLE`, or `STORE_NOT_CONFIGURED` without an enabled source).
 */
export class StoreSources implements StoreCatalog {
  #statuses: readonly RegistrySourceStatus[] | null = null;
  /** The status read running now, joined by reads that need one. */
  #statusRead: Promise<readonly RegistrySourceStatus[]> | null = null;
  /** Counts status reads, so an older answer never replaces a newer one. */
  #statusSerial = 0;
  #registry: RegistrySources | null = null;
  /** The usable sources the registry reader was configured with, as JSON. */
  #configured = '';
  /** The source that answered the last catalog read, or null when it failed or none ran. */
  #answered: AnsweringSource | null = null;

  constructor(private readonly options: StoreSourcesOptions) {}

  /** `GET /api/registries` as last read, or null before it answered. */
  get statuses(): readonly RegistrySourceStatus[] | null {
    return this.#statuses;
  }

  /** Forgets everything (another backend was set). */
  reset(): void {
    this.#statusSerial += 1;
    this.#statusRead = null;
    this.#statuses = null;
    this.#registry = null;
    this.#configured = '';
    this.#answered = null;
  }

  /**
   * Reads `GET /api/registries` again.
   *
   * @throws BackendRequestError when the backend cannot say (no answer, an error, an answer that is not a source list).
   */
  refresh(): Promise<readonly RegistrySourceStatus[]> {
    return this.#readStatuses('/api/registries', 'GET');
  }

  /**
   * The user's Retry: `POST /api/registries/retry` (the backend forgets timeouts and a source
   * marked unavailable, and asks every source again), then the page forgets its own timeouts and
   * discovers the usable sources again.
   */
  async retry(): Promise<void> {
    const configured = this.#configured;
    await this.#readStatuses('/api/registries/retry', 'POST');
    // A changed source list was discovered anew by #take; the same list is asked again here.
    if (this.#registry && this.#configured === configured) await this.#registry.retry();
  }

  /**
   * True when the backend's last status has no usable source. Installs and updates go through the
   * backend, which then has no store to use either, whatever the page read before.
   */
  noneUsable(): boolean {
    return this.#statuses !== null && !this.#statuses.some((status) => status.enabled && status.usable);
  }

  /** The disabled state's message: no source enabled, or store features disabled. */
  disabledMessage(): string {
    return this.#disabledError(this.#statuses ?? []).message;
  }

  /** The source the catalog came from, or else the backend's active one; null when none is usable. */
  shown(): ShownSource | null {
    const statuses = this.#statuses ?? [];
    const answered = this.#answered;
    const url = answered?.url ?? statuses.find((status) => status.active && status.usable)?.url;
    if (url === undefined) return null;
    const status = statuses.find((entry) => sourceKey(entry.url) === sourceKey(url));
    return {
      url,
      host: hostOf(url),
      primary: status?.primary ?? answered?.primary ?? false,
      // The backend's figure (decisions section 8); the page's own discovery when the backend never reached the source.
      pluginCount: status?.pluginCount ?? answered?.metadata?.pluginCount ?? null,
    };
  }

  /** Why each enabled source cannot be used: the page's own last failure with it, else the backend's. */
  problems(): SourceProblem[] {
    const seen = new Map((this.#registry?.status() ?? []).map((status) => [status.url, status.lastError]));
    return (this.#statuses ?? [])
      .filter((status) => status.enabled)
      .map((status) => {
        const reason = seen.get(sourceKey(status.url)) ?? status.lastError ?? (status.usable ? 'it did not answer' : 'it is not usable');
        return { url: status.url, host: hostOf(status.url), reason };
      });
  }

  list(query: StoreQuery, signal: AbortSignal): Promise<StorePage> {
    const { q, category, sort, page, pageSize } = query;
    return this.#read((client, deadline) => client.list({ q, category, sort, page, pageSize }, { signal: deadline }), signal);
  }

  detail(slug: string, signal: AbortSignal): Promise<StorePluginDetail> {
    return this.#read((client, deadline) => client.detail(slug, { signal: deadline }), signal);
  }

  async #read<T>(call: (client: RegistryClient, signal: AbortSignal) => Promise<T>, signal: AbortSignal): Promise<T> {
    const statuses = this.#statuses ?? (await (this.#statusRead ?? this.refresh()));
    signal.throwIfAborted();
    const registry = this.#registry;
    if (!registry) {
      this.#answered = null;
      this.options.changed();
      throw this.#disabledError(statuses);
    }
    try {
      const { value, source } = await registry.read(call, { signal });
      this.#answered = source;
      return value;
    } catch (error) {
      if (isStoreDisabledError(error)) this.#answered = null;
      throw error;
    } finally {
      if (!signal.aborted) this.options.changed();
    }
  }

  #disabledError(statuses: readonly RegistrySourceStatus[]): PluginHostError {
    if (!statuses.some((status) => status.enabled)) {
      return new PluginHostError('STORE_NOT_CONFIGURED', 'No store source is enabled, so store features are off; add or enable a source in Settings');
    }
    const reasons = this.problems().map((problem) => `${problem.host}: ${problem.reason}`);
    return new PluginHostError('STORE_UNAVAILABLE', `Store features are disabled: ${reasons.join('; ')}`);
  }

  #readStatuses(path: string, method: 'GET' | 'POST'): Promise<readonly RegistrySourceStatus[]> {
    const backend = this.options.backend();
    if (!backend) return Promise.resolve([]);
    const serial = ++this.#statusSerial;
    const read = backendJson(backend, path, { method }).then((body) => {
      const statuses = readSourceStatuses(body);
      if (serial === this.#statusSerial) this.#take(statuses);
      return statuses;
    });
    this.#statusRead = read;
    const done = (): void => {
      if (this.#statusRead === read) this.#statusRead = null;
    };
    read.then(done, done);
    return read;
  }

  /** Keeps a new status and points the page's reader at the usable sources. */
  #take(statuses: readonly RegistrySourceStatus[]): void {
    this.#statuses = statuses;
    const usable = statuses.filter((status) => status.enabled && status.usable).map(configOf);
    const configured = JSON.stringify(usable);
    if (configured !== this.#configured) {
      this.#configured = configured;
      if (usable.length === 0) this.#registry = null;
      else if (this.#registry) void this.#registry.configure(usable);
      // The platform's fetch, looked up at each request, so a page that wraps it later is honoured.
      else this.#registry = createRegistrySources({ sources: usable, fetch: (url, init) => fetch(url, init) });
    }
    this.options.changed();
  }
}
