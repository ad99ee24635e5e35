import { PluginHostError, type DevBuildFailedEvent, type PluginInfo, type PluginManifest } from '@plughost/host-sdk/core';
import type { BackendLogger } from '../../http/logger.js';
import { contentTypeOf } from '../plugin-data/content-type.js';
import { DevPluginsFileReader } from './dev-plugins-file.js';
import { fetchDevFile, fetchDevManifest, type DevFile } from './dev-plugin-fetch.js';
import { devPluginInfo } from './dev-plugin-info.js';
import { DevServerLink, type DevBuildEvent, type DevServerLinkOptions } from './dev-server-link.js';
import { watchFile } from './watch-file.js';

/** The dev plugin list changed (one appeared, went, became loadable or not, or its manifest changed). */
export interface DevListChangedEvent {
  readonly type: 'list-changed';
  /** The ids of `.dev-plugins.json` now. */
  readonly pluginIds: readonly string[];
}

/** What the launcher relays to its page at `GET /api/plugins/dev/events`. */
export type DevPluginsEvent = DevBuildEvent | DevListChangedEvent;

/**
 * The plugins of running dev servers (`pluginctl dev`), listed in `.dev-plugins.json` in the data
 * directory, for a launcher in development mode (decisions section 10).
 */
export interface DevPluginService {
  /** False when the backend was created without `devPlugins`: nothing is read, listed or relayed. */
  readonly enabled: boolean;
  /** Reads the file again when it changed, and answers the dev plugins as PluginInfo, sorted by id. */
  list(): Promise<PluginInfo[]>;
  /** True while `id` is an entry of the file as last read: its dev plugin takes the place of an installed one. */
  has(id: string): boolean;
  /**
   * A file of the dev plugin `id` (a path that passed the file route's rules), fetched from its
   * dev server; `manifest.json` is validated first.
   *
   * @throws PluginHostError `PLUGIN_NOT_FOUND` (not a dev plugin), `NOT_FOUND`, `PLUGIN_LOAD_FAILED`, `PLUGIN_TIMEOUT`, `INVALID_MANIFEST`.
   */
  file(id: string, path: string): Promise<DevFile>;
  /**
   * The manifest of the dev plugin `id`, read from its dev server now and validated (the rules of
   * an install, no signature), as the file route serves it: the per-plugin routes check with it.
   *
   * @throws PluginHostError `PLUGIN_NOT_FOUND` (not a dev plugin), `PLUGIN_LOAD_FAILED`, `PLUGIN_TIMEOUT`, `INVALID_MANIFEST`.
   */
  manifest(id: string): Promise<PluginManifest>;
  /** Calls `listener` with every event to relay; returns the function that stops it. */
  subscribe(listener: (event: DevPluginsEvent) => void): () => void;
  /** The last `build-failed` of each plugin whose last build failed, for a page that connects now. */
  failures(): readonly DevBuildFailedEvent[];
  /** Resolves once the service is closed (event streams end then). */
  readonly whenClosed: Promise<void>;
  /** Stops watching the file and following the dev servers. */
  close(): void;
}

/** Options of {@link createDevPluginService}. */
export interface DevPluginServiceOptions {
  /** The data directory holding `.dev-plugins.json`. */
  readonly dataDirectory: string;
  readonly logger: BackendLogger;
  /** How each dev server's event stream reconnects (tests shorten it). */
  readonly link?: DevServerLinkOptions;
}

interface Entry {
  readonly id: string;
  readonly url: string;
  manifest: PluginManifest | undefined;
  manifestProblem: string | undefined;
  /** Set while the dev server's event stream cannot be reached. */
  serverProblem: string | undefined;
  /** Counts manifest reads, so an older read that finishes late changes nothing. */
  reads: number;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function notDevPlugin(id: string): PluginHostError {
  return new PluginHostError('PLUGIN_NOT_FOUND', `Plugin ${id} is not installed`, { pluginId: id });
}

/** The service of a backend created without `devPlugins` (release mode): the file is never read. */
function disabledDevPlugins(): DevPluginService {
  return {
    enabled: false,
    list: async () => [],
    has: () => false,
    file: async (id) => {
      throw notDevPlugin(id);
    },
    manifest: async (id) => {
      throw notDevPlugin(id);
    },
    subscribe: () => () => {},
    failures: () => [],
    whenClosed: new Promise(() => {}),
    close: () => {},
  };
}

class WatchingDevPlugins implements DevPluginService {
  readonly enabled = true;
  readonly whenClosed: Promise<void>;
  readonly #reader: DevPluginsFileReader;
  readonly #entries = new Map<string, Entry>();
  readonly #links = new Map<string, DevServerLink>();
  readonly #failures = new Map<string, DevBuildFailedEvent>();
  readonly #listeners = new Set<(event: DevPluginsEvent) => void>();
  readonly #stopWatching: () => void;
  #closed = false;
  #finish: () => void = () => {};
  #lastList = '[]';
  #running: Promise<void> | undefined;
  #queued: Promise<void> | undefined;

  constructor(private readonly options: DevPluginServiceOptions) {
    this.#reader = new DevPluginsFileReader(options.dataDirectory, options.logger);
    this.whenClosed = new Promise((resolve) => (this.#finish = resolve));
    this.#stopWatching = watchFile(
      this.#reader.path,
      () => {
        this.sync().catch((error: unknown) => options.logger.warn(`Reading ${this.#reader.path} failed: ${messageOf(error)}`));
      },
      options.logger,
    );
  }

  /**
   * Brings the entries in line with the file. Calls made while a read runs share one more read
   * after it, so every caller sees the file as it was when it called, and reads never overlap.
   */
  sync(): Promise<void> {
    if (!this.#running) {
      this.#running = this.#syncOnce().finally(() => {
        this.#running = undefined;
      });
      return this.#running;
    }
    this.#queued ??= this.#running.then(() => {
      this.#queued = undefined;
      return this.sync();
    });
    return this.#queued;
  }

  async list(): Promise<PluginInfo[]> {
    await this.sync();
    return this.#infos();
  }

  has(id: string): boolean {
    return this.#entries.has(id);
  }

  async file(id: string, path: string): Promise<DevFile> {
    const entry = this.#entries.get(id);
    if (!entry) throw notDevPlugin(id);
    if (path !== 'manifest.json') return fetchDevFile(id, entry.url, path);
    // The page reads permissions from this file: it gets only a manifest that passed validation.
    const { bytes } = await fetchDevManifest(id, entry.url);
    return { body: bytes, contentType: contentTypeOf(path) };
  }

  async manifest(id: string): Promise<PluginManifest> {
    const entry = this.#entries.get(id);
    if (!entry) throw notDevPlugin(id);
    return (await fetchDevManifest(id, entry.url)).manifest;
  }

  subscribe(listener: (event: DevPluginsEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  failures(): readonly DevBuildFailedEvent[] {
    return [...this.#failures.values()];
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#stopWatching();
    for (const link of this.#links.values()) link.close();
    this.#links.clear();
    this.#listeners.clear();
    this.#finish();
  }

  async #syncOnce(): Promise<void> {
    if (this.#closed) return;
    const wanted = await this.#reader.read();
    if (this.#closed) return;
    const { logger } = this.options;
    for (const [id, entry] of this.#entries) {
      if (wanted.get(id) === entry.url) continue;
      this.#entries.delete(id);
      this.#failures.delete(id);
      logger.info(`Dev plugin ${id} is gone from .dev-plugins.json (its dev server stopped)`, { pluginId: id, url: entry.url });
    }
    const reads: Promise<void>[] = [];
    for (const [id, url] of wanted) {
      if (this.#entries.has(id)) continue;
      const entry: Entry = { id, url, manifest: undefined, manifestProblem: undefined, serverProblem: undefined, reads: 0 };
      this.#entries.set(id, entry);
      logger.info(`Dev plugin ${id} is served by ${url} (development mode)`, { pluginId: id, url });
      reads.push(this.#readManifest(entry));
    }
    const urls = new Set(wanted.values());
    for (const [url, link] of this.#links) {
      if (urls.has(url)) continue;
      link.close();
      this.#links.delete(url);
    }
    for (const url of urls) {
      if (this.#links.has(url)) continue;
      const link = new DevServerLink(url, this.#linkCallbacks(url), this.options.link);
      this.#links.set(url, link);
      link.start();
    }
    await Promise.all(reads);
    this.#changed();
  }

  #linkCallbacks(url: string) {
    const served = (): Entry[] => [...this.#entries.values()].filter((entry) => entry.url === url);
    // Said once per outage, not at every retry.
    let refusalLogged = false;
    return {
      connected: () => {
        refusalLogged = false;
        for (const entry of served()) {
          entry.serverProblem = undefined;
          void this.#readManifest(entry).then(() => this.#changed());
        }
        this.#changed();
      },
      event: (event: DevBuildEvent) => {
        const entry = this.#entries.get(event.pluginId);
        if (!entry || entry.url !== url) return;
        if (event.type === 'build-failed') this.#failures.set(entry.id, event);
        if (event.type !== 'rebuilt') {
          this.#emit(event);
          return;
        }
        this.#failures.delete(entry.id);
        // The new build may bring a new manifest: the list is brought up to date before the page reloads the frame.
        void this.#readManifest(entry).then(() => {
          this.#changed();
          if (this.#entries.get(entry.id) === entry) this.#emit(event);
        });
      },
      disconnected: (down: { kind: string; reason: string }) => {
        if (down.kind === 'refused') {
          if (refusalLogged) return;
          refusalLogged = true;
          this.options.logger.warn(`${url} sends no rebuild notices (${down.reason}); its plugins load, but frames are not replaced after a rebuild`);
          return;
        }
        const problem = `Its dev server stopped answering: ${down.reason}. Start \`pluginctl dev\` again, or remove the entry from .dev-plugins.json`;
        for (const entry of served()) entry.serverProblem = problem;
        this.#changed();
      },
    };
  }

  async #readManifest(entry: Entry): Promise<void> {
    const read = ++entry.reads;
    try {
      const { manifest } = await fetchDevManifest(entry.id, entry.url);
      if (read !== entry.reads) return;
      entry.manifest = manifest;
      entry.manifestProblem = undefined;
    } catch (error) {
      if (read !== entry.reads) return;
      const problem = messageOf(error);
      if (problem !== entry.manifestProblem) this.options.logger.warn(problem, { pluginId: entry.id });
      entry.manifestProblem = problem;
    }
  }

  #infos(): PluginInfo[] {
    return [...this.#entries.values()]
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map((entry) => devPluginInfo({ id: entry.id, url: entry.url, manifest: entry.manifest, problem: entry.serverProblem ?? entry.manifestProblem }));
  }

  /** Sends `list-changed` when what the list would answer is not what it answered last time. */
  #changed(): void {
    if (this.#closed) return;
    const infos = this.#infos();
    const text = JSON.stringify(infos);
    if (text === this.#lastList) return;
    this.#lastList = text;
    this.#emit({ type: 'list-changed', pluginIds: infos.map((plugin) => plugin.id) });
  }

  #emit(event: DevPluginsEvent): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(event);
      } catch (error) {
        this.options.logger.warn(`A dev plugin event listener failed: ${messageOf(error)}`);
      }
    }
  }
}

/**
 * Creates the dev plugin service of a backend. With `enabled` false (release mode) it never reads
 * `.dev-plugins.json` and lists nothing. Otherwise it reads the file at once (each entry's
 * manifest too, so the first listing already shows them), watches it, and follows each dev
 * server's rebuild notices.
 */
export async function createDevPluginService(enabled: boolean, options: DevPluginServiceOptions): Promise<DevPluginService> {
  if (!enabled) return disabledDevPlugins();
  const service = new WatchingDevPlugins(options);
  await service.sync();
  return service;
}
