/**
 * The debug harness's stub backend (specification, "Debug harness stub"; decisions section 10): a
 * `node:http` server answering every route of the local backend, under the same paths, with the
 * same JSON shapes, statuses and error bodies, from `plugins-dev/`, memory and fixed data. It
 * writes nothing to disk, reaches no network and runs nothing.
 */
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dataRoutes } from './data-routes.js';
import { downloadRoutes } from './download-routes.js';
import { StubDownloads } from './downloads.js';
import { bridgeRoutes } from './bridge-routes.js';
import { FAKE_LAUNCHER_SETTINGS } from './fake-data.js';
import { sendError } from './http-io.js';
import { StubInstances } from './instances.js';
import { type MockOverrides, isMockErrorAnswer, validateMockOverrides } from './mock-overrides.js';
import { PluginCatalog } from './plugin-catalog.js';
import { MemoryPluginData } from './plugin-data.js';
import { pluginRoutes } from './plugin-routes.js';
import { PluginStates } from './plugin-states.js';
import { createRequestGuard } from './request-guard.js';
import type { StubContext } from './stub-context.js';
import { StubRouter } from './stub-router.js';
import { systemRoutes } from './system-routes.js';
import { VirtualFiles } from './virtual-files.js';

/** Options of {@link startStubBackend}. */
export interface StubBackendOptions {
  /** The tree that contains `plugins-dev/` (one folder per plugin, named after its id). */
  readonly root: string;
  /** The port to listen on; 0 picks a free one (read it from the result). */
  readonly port: number;
  /** The address to bind; default `127.0.0.1`. Whatever it is, only peers on this machine are answered. */
  readonly host?: string;
  /** Overrides of the stub's answers, from {@link loadMockFile}. */
  readonly mock?: MockOverrides;
  /** Receives one short line per request (`GET /api/plugins/ 200`) and per notice; default none. */
  readonly log?: (line: string) => void;
}

/** A server that is listening. */
export interface RunningServer {
  /** `http://HOST:PORT` with the port actually bound (no trailing slash). */
  readonly url: string;
  readonly port: number;
  /** Stops listening, ends open streams and the download simulation. */
  close(): Promise<void>;
}

/** The path and query of a request target (origin form; anything else is answered 404). */
function targetOf(incoming: IncomingMessage): { path: string; query: URLSearchParams } {
  const target = incoming.url ?? '/';
  const index = target.indexOf('?');
  return index === -1 ? { path: target, query: new URLSearchParams() } : { path: target.slice(0, index), query: new URLSearchParams(target.slice(index + 1)) };
}

function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * Starts the stub backend.
 *
 * Routes: every route of the local backend (`GET /openapi/v1.json` lists them); what each answers
 * is in `docs/debug-harness-stub.md`. The checks in front of them are the backend's: peers on this
 * machine only, a `Host` header naming the stub (`localhost`, `127.0.0.1`, `[::1]` or `host`, with
 * the port), CORS for loopback origins (`*` for plugin files), and `Authorization: Bearer <any
 * token>` wherever the backend wants its token.
 *
 * @example
 * ```ts
 * const stub = await startStubBackend({ root: process.cwd(), port: 5100, mock: await loadMockFile('mock.json'), log: console.log });
 * console.log(`Stub backend at ${stub.url}/`);
 * ```
 * @throws CliError `INVALID_MOCK` when `mock` does not have the shape {@link loadMockFile} checks.
 */
export async function startStubBackend(options: StubBackendOptions): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const log = options.log ?? (() => {});
  const mock = validateMockOverrides(options.mock ?? {}, 'mock');
  const instances = new StubInstances();
  const context: StubContext = {
    catalog: new PluginCatalog(options.root, log),
    states: new PluginStates(mock.pluginStates),
    data: new MemoryPluginData(mock.settings),
    files: new VirtualFiles(mock.fileRead),
    instances,
    downloads: new StubDownloads({
      instances,
      mockStart: isMockErrorAnswer(mock.downloadStart) ? undefined : mock.downloadStart,
      mockProgress: mock.downloadProgress,
    }),
    mock,
    launcherSettings: FAKE_LAUNCHER_SETTINGS,
    log,
  };
  const router = new StubRouter([
    ...pluginRoutes(context),
    ...dataRoutes(context),
    ...systemRoutes(context),
    ...bridgeRoutes(context),
    ...downloadRoutes(context),
  ]);
  let port = 0;
  const guard = createRequestGuard({ host, port: () => port });
  const report = (error: unknown): void => log(`stub error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);

  async function handle(incoming: IncomingMessage, response: ServerResponse): Promise<void> {
    const { path, query } = targetOf(incoming);
    // Method, path and status only: never a header (the token), a query or a body.
    response.once('close', () => log(`${incoming.method} ${path} ${response.statusCode}`));
    try {
      if (!guard(incoming, response, path)) return;
      await router.dispatch(incoming, response, path, query);
    } catch (error) {
      sendError(response, error, report);
    }
  }

  const server = createServer((incoming, response) => void handle(incoming, response));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://${urlHost(host)}:${port}`,
    port,
    close: async () => {
      context.downloads.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Event streams never end by themselves; the stub ends them.
      server.closeAllConnections();
      await closed;
    },
  };
}
