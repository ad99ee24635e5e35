/**
 * Several registry sources behind one set of read calls: the specification's "Client discovery
 * and fallback" and decisions section 8. Isomorphic (no DOM, no `node:` imports): the local
 * backend uses it for store installs, updates and the revocation list, and a browser UI may use
 * it the same way with its own `fetch`.
 */
import { PluginHostError, isPluginHostError } from '../errors.js';
import { createRegistryClient, type RegistryClient, type RegistryFetch } from './registry-client.js';
import { registryFailureOf } from './registry-failure.js';
import { isUsableRegistry } from './registry-readers.js';
import type {
  CheckUpdatesRequest,
  CheckUpdatesResponse,
  DownloadInfo,
  RegistryListQuery,
  RegistryMetadata,
  RegistryPluginDetail,
  RegistryPluginList,
} from './registry-types.js';
import { DeadlineExceeded, systemRegistryTimer, withDeadline, type RegistryTimer } from './source-timer.js';

/** One configured source, as the launcher settings' `registryUrl` list holds it. */
export interface RegistrySourceConfig {
  /** The source's API root, e.g. `https://store.example.com/api/v1`. */
  readonly url: string;
  /** The one source that takes writes (publish, login, reviews), telemetry and the revocation list. */
  readonly primary: boolean;
  /** Smaller is tried first. */
  readonly priority: number;
  readonly enabled: boolean;
}

/** What `GET /api/registries` reports of one source (decisions section 8). */
export interface RegistrySourceStatus extends RegistrySourceConfig {
  /** Its last `GET /registry` passed the usable check, and it is not marked unavailable. */
  readonly usable: boolean;
  /** Read calls go to it first. */
  readonly active: boolean;
  /** From its last successful `GET /registry`; `null` before one. */
  readonly apiVersion: string | null;
  readonly capabilities: readonly string[];
  /** Published plugins it announced (kept from the last successful discovery). */
  readonly pluginCount: number | null;
  /** Why its last call failed, or why it is not usable; `null` when all is well. */
  readonly lastError: string | null;
}

/** A source that answered, handed to callers that need to know which one (mirrors, install records). */
export interface AnsweringSource {
  readonly url: string;
  readonly primary: boolean;
  /** Its metadata from the last discovery (`mirrors` included). */
  readonly metadata: RegistryMetadata | null;
}

/** A value and the source it came from. */
export interface SourcedResult<T> {
  readonly value: T;
  readonly source: AnsweringSource;
}

/** Options of {@link createRegistrySources}. */
export interface RegistrySourcesOptions {
  readonly sources: readonly RegistrySourceConfig[];
  /** The fetch every source uses (the platform's `fetch` fits), unless {@link RegistrySourcesOptions.fetchFor} gives one. */
  readonly fetch?: RegistryFetch;
  /** A fetch per source URL, e.g. one whose SSRF guard trusts exactly that source's `host:port`. */
  readonly fetchFor?: (sourceUrl: string) => RegistryFetch;
  /** Clock and timers; default the platform's. Tests pass their own and move time themselves. */
  readonly timer?: RegistryTimer;
  /** `GET /registry` deadline; default 5000 ms. */
  readonly discoveryTimeoutMs?: number;
  /** Deadline of every other call; default 10000 ms. */
  readonly callTimeoutMs?: number;
  /** How long a source stays unavailable after {@link TIMEOUTS_BEFORE_UNAVAILABLE} timeouts in a row; default 5 minutes. */
  readonly unavailableMs?: number;
  /** With no usable source, a read rediscovers first when the last discovery is older than this; default 60000 ms (the metadata cache of the specification). */
  readonly rediscoverAfterMs?: number;
}

/** Per-call options. */
export interface SourceCallOptions {
  /** Cancels the call; it then rejects with the fetch's abort error and no source is blamed. */
  readonly signal?: AbortSignal;
}

/** A read or write run against one source's client, within the deadline's `signal`. */
export type SourceCall<T> = (client: RegistryClient, signal: AbortSignal) => Promise<T>;

/** The sources of one launcher; see {@link createRegistrySources}. */
export interface RegistrySources {
  /** Every configured source (enabled or not), best first. */
  status(): RegistrySourceStatus[];
  /** `GET /registry` of every enabled source in parallel; a discovery already running is joined. */
  discover(): Promise<RegistrySourceStatus[]>;
  /** The status once a discovery has finished: joins one that is running, starts one only when none ever ran. */
  discovered(): Promise<RegistrySourceStatus[]>;
  /** Forgets timeouts and unavailability (the user's Retry) and discovers again. */
  retry(): Promise<RegistrySourceStatus[]>;
  /** Replaces the configured sources (settings changed): what is known of a URL still listed is kept; then discovers again. */
  configure(sources: readonly RegistrySourceConfig[]): Promise<RegistrySourceStatus[]>;
  /** The primary source's configuration, or `null` when none is enabled. */
  primary(): RegistrySourceConfig | null;
  /**
   * Runs a read on the active source and, when it times out, answers 5xx, cannot be reached or
   * answers something unusable, at once on the next usable source. A 4xx answer is the caller's:
   * it rejects without trying another source.
   *
   * @throws PluginHostError `STORE_NOT_CONFIGURED` when no source is enabled; `STORE_UNAVAILABLE`
   *   ("store features are disabled: ...") when no source is usable or every one failed; the
   *   registry client's error of a 4xx answer (`NOT_FOUND` for 404).
   */
  read<T>(call: SourceCall<T>, options?: SourceCallOptions): Promise<SourcedResult<T>>;
  /**
   * Runs a call on the primary source only, with the call deadline and no fallback: writes
   * (publish, login, reviews), and what decisions section 8 takes from the primary alone.
   *
   * @throws PluginHostError `STORE_NOT_CONFIGURED` without an enabled primary, the client's errors,
   *   `STORE_UNAVAILABLE` when it timed out.
   */
  onPrimary<T>(call: SourceCall<T>, options?: SourceCallOptions): Promise<SourcedResult<T>>;
  /**
   * Runs a read on the configured source `url` only, with the call deadline and no fallback: for
   * what only that source can answer, such as the updates of a plugin installed from it that the
   * active source does not list (decisions section 12). Timeouts and failures count against it as
   * for any read.
   *
   * @throws PluginHostError `STORE_UNAVAILABLE` when `url` is not a configured, enabled and usable
   *   source now, or when it timed out, answered 5xx or could not be reached; the registry client's
   *   error of a 4xx answer (`NOT_FOUND` for 404).
   */
  onSource<T>(url: string, call: SourceCall<T>, options?: SourceCallOptions): Promise<SourcedResult<T>>;
  /** `GET /plugins` with fallback. */
  list(query?: RegistryListQuery, options?: SourceCallOptions): Promise<RegistryPluginList>;
  /** `GET /plugins/<slug>` with fallback. */
  detail(slug: string, options?: SourceCallOptions): Promise<RegistryPluginDetail>;
  /** `GET /plugins/<slug>/versions/<version>/download` with fallback, and the source that answered (its `mirrors`). */
  downloadInfo(slug: string, version: string, options?: SourceCallOptions): Promise<SourcedResult<DownloadInfo>>;
  /** `POST /plugins/check-updates` with fallback. */
  checkUpdates(request: CheckUpdatesRequest, options?: SourceCallOptions): Promise<CheckUpdatesResponse>;
  /** `GET /developer/keys/revoked` with fallback (the bytes as served; verify them with the root key). */
  revocationList(options?: SourceCallOptions): Promise<Uint8Array>;
}

/** `GET /registry` deadline (decisions section 8). */
export const DISCOVERY_TIMEOUT_MS = 5_000;
/** Deadline of every other registry call (decisions section 8). */
export const REGISTRY_CALL_TIMEOUT_MS = 10_000;
/** Timeouts in a row after which a source is marked unavailable (the specification's limit). */
export const TIMEOUTS_BEFORE_UNAVAILABLE = 3;
/** How long a source stays marked unavailable (decisions section 8). */
export const SOURCE_UNAVAILABLE_MS = 5 * 60_000;

interface SourceState {
  config: RegistrySourceConfig;
  client: RegistryClient;
  metadata: RegistryMetadata | null;
  /** The last discovery's verdict. */
  discoveredUsable: boolean;
  lastError: string | null;
  timeoutsInARow: number;
  unavailableUntil: number;
}

type Failure = { readonly kind: 'timeout' | 'server' | 'unreachable' | 'invalid'; readonly message: string };

/** `host[:port]` of a URL for messages (the core has no URL parser). */
function hostOf(url: string): string {
  const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(url)?.[1];
  return authority ? authority.slice(authority.lastIndexOf('@') + 1) : url;
}

function normalized(url: string): string {
  return url.trim().replace(/\/+$/, '');
}

function usabilityProblem(metadata: RegistryMetadata): string {
  const major = /^(\d+)(?:\.|$)/.exec(metadata.apiVersion);
  if (!major || Number(major[1]) < 1) return `it speaks registry protocol ${metadata.apiVersion}; this launcher needs 1.0 or newer`;
  const missing = (['list', 'detail', 'download'] as const).filter((capability) => !metadata.capabilities.includes(capability));
  return `it does not offer ${missing.join(', ')}`;
}

/**
 * Creates the sources of one launcher. Nothing is fetched until {@link RegistrySources.discover}
 * (or the first read, which discovers when that has not happened yet).
 *
 * - Discovery sends `GET /registry` to every enabled source at once (5 s each). A source is usable
 *   when `apiVersion`'s major part is 1 or higher and `capabilities` include `list`, `detail` and
 *   `download`. The active source is the usable one with the smallest `priority` (then the
 *   primary, then the larger `pluginCount`).
 * - Requests go to the configured URL, never to the `baseUrl` a source announces: the user chose
 *   that address, and a source must not move the launcher's calls elsewhere.
 * - Three timeouts in a row mark a source unavailable for five minutes, or until {@link RegistrySources.retry}.
 *
 * @example
 * ```ts
 * const sources = createRegistrySources({ sources: settings.registryUrl, fetch: globalThis.fetch });
 * await sources.discover();
 * const page = await sources.list({ q: 'map' }); // the backup answers while the primary is down
 * ```
 */
export function createRegistrySources(options: RegistrySourcesOptions): RegistrySources {
  const timer = options.timer ?? systemRegistryTimer;
  const discoveryTimeoutMs = options.discoveryTimeoutMs ?? DISCOVERY_TIMEOUT_MS;
  const callTimeoutMs = options.callTimeoutMs ?? REGISTRY_CALL_TIMEOUT_MS;
  const unavailableMs = options.unavailableMs ?? SOURCE_UNAVAILABLE_MS;
  const rediscoverAfterMs = options.rediscoverAfterMs ?? 60_000;
  let states: SourceState[] = [];
  let discovery: Promise<RegistrySourceStatus[]> | null = null;
  let discoveredAt: number | null = null;

  function fetchOf(url: string): RegistryFetch {
    if (options.fetchFor) return options.fetchFor(url);
    if (options.fetch) return options.fetch;
    throw new PluginHostError('INVALID_ARGUMENT', 'createRegistrySources needs a fetch or fetchFor');
  }

  function stateOf(config: RegistrySourceConfig, previous: readonly SourceState[]): SourceState {
    const url = normalized(config.url);
    const kept = previous.find((state) => state.config.url === url);
    const next = { ...config, url };
    if (kept) return { ...kept, config: next };
    return {
      config: next,
      client: createRegistryClient({ baseUrl: url, fetch: fetchOf(url) }),
      metadata: null,
      discoveredUsable: false,
      lastError: null,
      timeoutsInARow: 0,
      unavailableUntil: 0,
    };
  }

  function setSources(configs: readonly RegistrySourceConfig[]): void {
    const previous = states;
    states = configs.map((config) => stateOf(config, previous));
  }
  setSources(options.sources);

  function isUnavailable(state: SourceState): boolean {
    if (state.unavailableUntil === 0) return false;
    if (state.unavailableUntil > timer.now()) return true;
    // The five minutes are over: the source gets a fresh start.
    state.unavailableUntil = 0;
    state.timeoutsInARow = 0;
    return false;
  }

  function isUsable(state: SourceState): boolean {
    return state.config.enabled && state.discoveredUsable && !isUnavailable(state);
  }

  /** Usable sources, best first. */
  function candidates(): SourceState[] {
    return states
      .map((state, index) => ({ state, index }))
      .filter(({ state }) => isUsable(state))
      .sort(
        (a, b) =>
          a.state.config.priority - b.state.config.priority ||
          Number(b.state.config.primary) - Number(a.state.config.primary) ||
          (b.state.metadata?.pluginCount ?? 0) - (a.state.metadata?.pluginCount ?? 0) ||
          a.index - b.index,
      )
      .map(({ state }) => state);
  }

  function status(): RegistrySourceStatus[] {
    const active = candidates()[0];
    const ordered = [...states].sort((a, b) => a.config.priority - b.config.priority || Number(b.config.primary) - Number(a.config.primary));
    return ordered.map((state) => ({
      url: state.config.url,
      primary: state.config.primary,
      priority: state.config.priority,
      enabled: state.config.enabled,
      usable: isUsable(state),
      active: state === active,
      apiVersion: state.metadata?.apiVersion ?? null,
      capabilities: [...(state.metadata?.capabilities ?? [])],
      pluginCount: state.metadata?.pluginCount ?? null,
      lastError: state.config.enabled ? state.lastError : null,
    }));
  }

  function answering(state: SourceState): AnsweringSource {
    return { url: state.config.url, primary: state.config.primary, metadata: state.metadata };
  }

  /** Classifies a failed call; `null` means it is the caller's (a 4xx, a cancellation, a bug). */
  function failureOf(error: unknown, state: SourceState, signal: AbortSignal | undefined): Failure | null {
    if (signal?.aborted) return null;
    const host = hostOf(state.config.url);
    if (error instanceof DeadlineExceeded) return { kind: 'timeout', message: `${host} did not answer in time (${error.message})` };
    const failure = registryFailureOf(error);
    if (!failure || !isPluginHostError(error)) return null;
    if (failure.registryFailure === 'registry') {
      if (failure.status !== undefined && failure.status >= 500)
        return { kind: 'server', message: `${host} answered HTTP ${failure.status}: ${error.message}` };
      return null;
    }
    return { kind: failure.registryFailure, message: error.message };
  }

  function recordFailure(state: SourceState, failure: Failure): void {
    state.lastError = failure.message;
    if (failure.kind !== 'timeout') {
      state.timeoutsInARow = 0;
      return;
    }
    state.timeoutsInARow += 1;
    if (state.timeoutsInARow >= TIMEOUTS_BEFORE_UNAVAILABLE) {
      state.unavailableUntil = timer.now() + unavailableMs;
      state.lastError = `${failure.message}; ${TIMEOUTS_BEFORE_UNAVAILABLE} timeouts in a row, so it is not used for ${Math.round(unavailableMs / 60_000)} minutes (or until Retry)`;
    }
  }

  function recordSuccess(state: SourceState): void {
    state.timeoutsInARow = 0;
    state.lastError = null;
  }

  async function discoverOne(state: SourceState): Promise<void> {
    try {
      const metadata = await withDeadline((signal) => state.client.metadata({ signal }), discoveryTimeoutMs, timer);
      state.metadata = metadata;
      state.discoveredUsable = isUsableRegistry(metadata);
      recordSuccess(state);
      if (!state.discoveredUsable) state.lastError = `${hostOf(state.config.url)} is not usable: ${usabilityProblem(metadata)}`;
    } catch (error) {
      state.discoveredUsable = false;
      const failure = failureOf(error, state, undefined) ?? {
        kind: 'invalid' as const,
        message: `${hostOf(state.config.url)} answered GET /registry with ${isPluginHostError(error) ? error.message : 'an error'}`,
      };
      recordFailure(state, failure);
    }
  }

  function discover(): Promise<RegistrySourceStatus[]> {
    discovery ??= (async () => {
      try {
        await Promise.all(states.filter((state) => state.config.enabled).map(discoverOne));
        discoveredAt = timer.now();
        return status();
      } finally {
        discovery = null;
      }
    })();
    return discovery;
  }

  /** Discovers when that never happened (or is running), or when nothing is usable and the last look is old. */
  async function ensureDiscovered(): Promise<void> {
    if (discovery) await discovery;
    if (discoveredAt === null || (candidates().length === 0 && timer.now() - discoveredAt >= rediscoverAfterMs)) await discover();
  }

  function enabledOrThrow(): void {
    if (!states.some((state) => state.config.enabled)) {
      throw new PluginHostError('STORE_NOT_CONFIGURED', 'No store source is enabled, so store features are off; add or enable a source in Settings');
    }
  }

  function disabledError(reasons: readonly string[]): PluginHostError {
    const detail = reasons.length > 0 ? reasons.join('; ') : 'no enabled source passed the usable check';
    return new PluginHostError(
      'STORE_UNAVAILABLE',
      `Store features are disabled: ${detail}. Check your network connection and the store sources in Settings, then retry.`,
      { sources: states.filter((state) => state.config.enabled).map((state) => ({ url: state.config.url, lastError: state.lastError })) },
    );
  }

  async function attempt<T>(state: SourceState, call: SourceCall<T>, signal: AbortSignal | undefined): Promise<{ value: T } | { failure: Failure }> {
    try {
      const value = await withDeadline((deadline) => call(state.client, deadline), callTimeoutMs, timer, signal);
      recordSuccess(state);
      return { value };
    } catch (error) {
      const failure = failureOf(error, state, signal);
      if (!failure) {
        // A 4xx answer still means the source works.
        if (registryFailureOf(error)?.registryFailure === 'registry' && !signal?.aborted) recordSuccess(state);
        throw error;
      }
      recordFailure(state, failure);
      return { failure };
    }
  }

  async function read<T>(call: SourceCall<T>, callOptions: SourceCallOptions = {}): Promise<SourcedResult<T>> {
    enabledOrThrow();
    await ensureDiscovered();
    const tried = candidates();
    if (tried.length === 0) {
      throw disabledError(states.filter((state) => state.config.enabled && state.lastError).map((state) => state.lastError as string));
    }
    const reasons: string[] = [];
    for (const state of tried) {
      const outcome = await attempt(state, call, callOptions.signal);
      if ('value' in outcome) return { value: outcome.value, source: answering(state) };
      reasons.push(outcome.failure.message);
    }
    throw disabledError(reasons);
  }

  function primaryState(): SourceState | undefined {
    return states.find((state) => state.config.primary && state.config.enabled);
  }

  async function onPrimary<T>(call: SourceCall<T>, callOptions: SourceCallOptions = {}): Promise<SourcedResult<T>> {
    const state = primaryState();
    if (!state) throw new PluginHostError('STORE_NOT_CONFIGURED', 'No primary store source is enabled; writes, telemetry and the revocation list need one');
    const outcome = await attempt(state, call, callOptions.signal);
    if ('value' in outcome) return { value: outcome.value, source: answering(state) };
    throw new PluginHostError('STORE_UNAVAILABLE', `The primary store could not be used: ${outcome.failure.message}`, { url: state.config.url });
  }

  async function onSource<T>(url: string, call: SourceCall<T>, callOptions: SourceCallOptions = {}): Promise<SourcedResult<T>> {
    await ensureDiscovered();
    const state = states.find((candidate) => candidate.config.url === normalized(url));
    if (!state || !isUsable(state)) {
      throw new PluginHostError('STORE_UNAVAILABLE', `The store source ${hostOf(url)} is not configured, enabled and usable now`, { url: normalized(url) });
    }
    const outcome = await attempt(state, call, callOptions.signal);
    if ('value' in outcome) return { value: outcome.value, source: answering(state) };
    throw new PluginHostError('STORE_UNAVAILABLE', `The store source ${hostOf(url)} could not be used: ${outcome.failure.message}`, { url: state.config.url });
  }

  return {
    status,
    discover,
    async discovered() {
      if (discovery) await discovery;
      if (discoveredAt === null) await discover();
      return status();
    },
    async retry() {
      for (const state of states) {
        state.timeoutsInARow = 0;
        state.unavailableUntil = 0;
      }
      return discover();
    },
    async configure(sources) {
      if (discovery) await discovery;
      setSources(sources);
      return discover();
    },
    primary() {
      const state = primaryState();
      return state ? { ...state.config } : null;
    },
    read,
    onPrimary,
    onSource,
    async list(query = {}, callOptions = {}) {
      return (await read((client, signal) => client.list(query, { signal }), callOptions)).value;
    },
    async detail(slug, callOptions = {}) {
      return (await read((client, signal) => client.detail(slug, { signal }), callOptions)).value;
    },
    downloadInfo(slug, version, callOptions = {}) {
      return read((client, signal) => client.downloadInfo(slug, version, { signal }), callOptions);
    },
    async checkUpdates(request, callOptions = {}) {
      return (await read((client, signal) => client.checkUpdates(request, { signal }), callOptions)).value;
    },
    async revocationList(callOptions = {}) {
      return (await read((client, signal) => client.revocationList({ signal }), callOptions)).value;
    },
  };
}
