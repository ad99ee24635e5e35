/**
 * The debug harness (specification, "Debug harness stub"; decisions 10): inside a launcher tree
 * with `plugins-dev/`, `pluginctl dev` starts the stub backend and the harness server, whose page
 * hosts every plugin of `plugins-dev/` with the real launcher elements and plugin host, and
 * rebuilds and replaces a plugin's frame when its sources change.
 */
import { type DevEventHub, type HotReloader, createDevEventHub, startHotReloader } from '../dev/index.js';
import { HARNESS_ASSETS } from './assets.js';
import { startHarnessServer } from './harness-server.js';
import type { HarnessBuildEvent } from './page-config.js';
import { type PluginFolder, watchPluginFolders } from './plugin-folders.js';
import { type MockOverrides, startStubBackend } from './stub/index.js';

export type { HarnessBuildEvent, HarnessPageConfig } from './page-config.js';

/** Options of {@link startHarness}. */
export interface HarnessOptions {
  /** The launcher tree that holds `plugins-dev/`. */
  readonly root: string;
  /** The stub backend's port (the CLI's default is `STUB_PORT` of `port-option.ts`); 0 picks a free port. */
  readonly stubPort: number;
  /** The harness page's port (the CLI's default is `HARNESS_PORT` of `port-option.ts`); 0 picks a free port. */
  readonly harnessPort: number;
  /** The address both servers listen on; default `127.0.0.1`. */
  readonly host?: string;
  /** The stub's overrides, from `loadMockFile`. */
  readonly mock?: MockOverrides;
  /** The `--mock` path as the user gave it, shown in the page's header beside the keys it overrides. */
  readonly mockFile?: string;
  /** `--build-cmd` for every plugin; otherwise each plugin's build is detected. */
  readonly buildCommand?: string;
  /** Progress lines: builds, plugins added and removed, requests the stub could not answer. */
  readonly log: (line: string) => void;
}

/** A running harness. */
export interface RunningHarness {
  /** The page: `http://127.0.0.1:PORT/`. */
  readonly harnessUrl: string;
  /** The stub backend: `http://127.0.0.1:PORT`. */
  readonly stubUrl: string;
  /** Stops the reloaders (and their builds), the harness server and the stub. */
  close(): Promise<void>;
}

/**
 * The hub the reloaders publish to, keeping the last build event of each plugin for pages that
 * connect later (`/__pluginctl/builds`).
 */
function recordingHub(hub: DevEventHub, last: Map<string, HarnessBuildEvent>): DevEventHub {
  return {
    publish(event) {
      if (event.type !== 'hello') last.set(event.pluginId, event);
      hub.publish(event);
    },
    handle: (request, response) => hub.handle(request, response),
    close: () => hub.close(),
  };
}

/**
 * Starts the debug harness: the stub backend (port 5100 by default), then the harness server
 * (port 1420 by default) with its page, and one hot reloader per plugin of `plugins-dev/`, each
 * building its plugin once at start (as the bare dev server does) and again 400 ms after its
 * sources change. Plugins added to or removed from `plugins-dev/` while it runs are picked up
 * within a second: their reloader starts or stops, and the page, told by a new `hello` event,
 * loads or drops them.
 *
 * @example
 * ```ts
 * const harness = await startHarness({ root: process.cwd(), stubPort: 5100, harnessPort: 1420, log: console.error });
 * console.log(`Stub backend at ${harness.stubUrl}`);
 * console.log(`Harness at ${harness.harnessUrl}`);
 * process.once('SIGINT', () => void harness.close());
 * ```
 *
 * @throws CliError `PORT_IN_USE` when a port is taken; the stub's errors (see `startStubBackend`).
 */
export async function startHarness(options: HarnessOptions): Promise<RunningHarness> {
  const host = options.host ?? '127.0.0.1';
  const { log } = options;
  const stub = await startStubBackend({ root: options.root, port: options.stubPort, host, log, ...(options.mock ? { mock: options.mock } : {}) });

  const lastBuilds = new Map<string, HarnessBuildEvent>();
  let plugins: readonly PluginFolder[] = [];
  const hub = recordingHub(
    createDevEventHub(() => plugins.map((plugin) => plugin.id)),
    lastBuilds,
  );
  // Each reloader resolves after its plugin's first build; `undefined` when it could not start.
  const reloaders = new Map<string, Promise<HotReloader | undefined>>();
  const startReloader = (plugin: PluginFolder): void => {
    const started = startHotReloader({
      pluginId: plugin.id,
      dir: plugin.dir,
      hub,
      log,
      initialBuild: true,
      ...(options.buildCommand !== undefined ? { buildCommand: options.buildCommand } : {}),
    }).catch((error: unknown) => {
      log(`${plugin.id}: not watched: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    });
    reloaders.set(plugin.id, started);
  };
  const stopReloader = async (id: string): Promise<void> => {
    const reloader = reloaders.get(id);
    reloaders.delete(id);
    lastBuilds.delete(id);
    await (await reloader)?.close();
  };

  let folders: Awaited<ReturnType<typeof watchPluginFolders>> | undefined;
  let server: Awaited<ReturnType<typeof startHarnessServer>> | undefined;
  try {
    folders = await watchPluginFolders(options.root, (change) => {
      plugins = change.current;
      for (const plugin of change.removed) {
        log(`${plugin.id}: removed from plugins-dev/`);
        void stopReloader(plugin.id);
      }
      for (const plugin of change.added) {
        log(`${plugin.id}: added to plugins-dev/`);
        startReloader(plugin);
      }
      // The page loads or drops plugins when the list it was greeted with changes.
      hub.publish({ type: 'hello', pluginIds: change.current.map((plugin) => plugin.id) });
    });
    plugins = folders.current();
    server = await startHarnessServer({
      host,
      port: options.harnessPort,
      stubUrl: stub.url,
      hub,
      assets: HARNESS_ASSETS,
      page: {
        stubUrl: stub.url,
        mockFile: options.mockFile ?? (options.mock ? '(given without a file name)' : null),
        mockKeys: options.mock ? Object.keys(options.mock) : [],
      },
      builds: () => [...lastBuilds.values()],
      log,
    });
    for (const plugin of plugins) startReloader(plugin);
    // Ready once every plugin has been built once, so the page serves fresh builds from the start.
    await Promise.all(reloaders.values());
  } catch (error) {
    folders?.close();
    await Promise.all([...reloaders.keys()].map(stopReloader));
    await server?.close();
    await stub.close();
    throw error;
  }

  let closing: Promise<void> | undefined;
  const running = { folders, server };
  return {
    harnessUrl: running.server.url,
    stubUrl: stub.url,
    close() {
      closing ??= (async () => {
        running.folders.close();
        await Promise.all([...reloaders.keys()].map(stopReloader));
        await running.server.close();
        await stub.close();
      })();
      return closing;
    },
  };
}
