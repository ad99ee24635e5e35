import { readFile, realpath } from 'node:fs/promises';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { join, resolve } from 'node:path';
import { DEV_EVENTS_PATH, DEV_PLUGINS_FILE_NAME, type DevServerEvent, ErrorCode, formatManifestProblems, parseManifest } from '@plughost/host-sdk/core';
// The launcher's own rules: content types, Host names, and how a file is opened inside its folder.
import { contentTypeOf, createHostMatcher, hostNotAllowedBody, openPluginFile } from '@plughost/backend-kit';
import { CliError } from '../cli-error.js';
import { DEV_PORT } from '../port-option.js';
import { addDevPluginEntry, removeDevPluginEntry } from './dev-plugins-entry.js';
import { type DevEventHub, createDevEventHub } from './event-hub.js';
import { startHotReloader } from './hot-reloader.js';
import { sendError } from './http-answer.js';
import { renderIndexPage } from './index-page.js';
import { launcherDataDirectory } from './launcher-data-directory.js';
import { MANIFEST_FILE, lookUpServedFile } from './served-files.js';

/** The bare dev server's port when none is given (decisions 10): `DEV_PORT`'s default, defined once in `port-option.ts`. */
export const DEFAULT_DEV_PORT = DEV_PORT.fallback;

/** Options of {@link startBareDevServer}. */
export interface BareDevServerOptions {
  /** The plugin project (holds `manifest.json`). */
  readonly projectDir: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** The address to listen on; default `127.0.0.1`. */
  readonly host?: string;
  /** `--build-cmd`, run through the shell; otherwise `<package manager> run build` when package.json has a build script. */
  readonly buildCommand?: string;
  /** The launcher data directory that gets `.dev-plugins.json`; default `LAUNCHER_HOME`, else the demo launcher's data folder. */
  readonly launcherHome?: string;
  /** Progress lines: builds, and the entries written. */
  readonly log: (line: string) => void;
}

/** A running bare dev server. */
export interface RunningDevServer {
  /** `http://127.0.0.1:PORT/`: the address written to `.dev-plugins.json`. */
  readonly url: string;
  /** The port actually bound. */
  readonly port: number;
  readonly pluginId: string;
  /** The `.dev-plugins.json` that holds this server's entry. */
  readonly devPluginsFile: string;
  /** The build it runs on changes, or `null` for a project without a build. */
  readonly buildCommand: string | null;
  /** Removes its `.dev-plugins.json` entry, stops the build and watcher, and closes the server. */
  close(): Promise<void>;
}

async function readPluginManifest(projectDir: string): Promise<{ id: string; frontend: string | undefined }> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(join(projectDir, MANIFEST_FILE));
  } catch {
    throw new CliError(
      'NO_MANIFEST',
      `No manifest.json in ${projectDir}. Run pluginctl dev in a plugin project (pluginctl create <id> makes one), or in a launcher tree with plugins-dev/ for the debug harness.`,
    );
  }
  const parsed = parseManifest(bytes);
  if (!parsed.ok) throw new CliError('INVALID_MANIFEST', `${formatManifestProblems(parsed.problems)}. Fix manifest.json (pluginctl lint shows the same list).`);
  return { id: parsed.manifest.id, frontend: parsed.manifest.entry?.frontend };
}

/** The host part of the address written to `.dev-plugins.json`: a loopback name, as the launcher requires. */
function loopbackUrlHost(host: string): string {
  if (host === 'localhost' || host === '127.0.0.1') return host;
  if (host === '::1') return '[::1]';
  // A wildcard (0.0.0.0, ::) or another local address also answers on 127.0.0.1.
  return '127.0.0.1';
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((done, fail) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      if (error.code === 'EADDRINUSE') {
        fail(
          new CliError(
            'PORT_IN_USE',
            `Port ${port} on ${host} is in use (another pluginctl dev?). Stop it, or pass --port <n> (or set PLUGINCTL_DEV_PORT); 0 picks a free port.`,
          ),
        );
      } else if (error.code === 'EACCES') {
        fail(new CliError('PORT_IN_USE', `Port ${port} on ${host} may not be used by this user. Pass --port <n> above 1023 (or set PLUGINCTL_DEV_PORT).`));
      } else {
        fail(error);
      }
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      const address = server.address();
      done(typeof address === 'object' && address !== null ? address.port : port);
    });
  });
}

async function sendFile(request: IncomingMessage, response: ServerResponse, projectDir: string, path: string): Promise<void> {
  const file = await openPluginFile(projectDir, path);
  if (file === null) {
    // Removed or replaced by a link since the files were listed: a build is rewriting it.
    sendError(response, 404, ErrorCode.NOT_FOUND, `${path} does not exist (any more)`);
    return;
  }
  const { handle, stats } = file;
  let streaming = false;
  try {
    response.writeHead(200, {
      'Content-Type': contentTypeOf(path),
      'Content-Length': stats.size,
      // Every build changes the files behind the same URLs: nothing may be reused.
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    });
    if (request.method === 'HEAD' || stats.size === 0) {
      response.end();
      return;
    }
    const stream = handle.createReadStream();
    streaming = true;
    stream.on('error', () => response.destroy());
    stream.pipe(response);
  } finally {
    if (!streaming) await handle.close();
  }
}

/**
 * Starts the bare dev server of a plugin project (`pluginctl dev` outside a tree with
 * `plugins-dev/`, decisions 10): runs the project's build once (when it has one), serves
 * `manifest.json` and the files `pluginctl pack` would package at `http://127.0.0.1:PORT/<path>`,
 * the build events at `/__pluginctl/events`, and a status page at `/`; rebuilds on source changes;
 * and writes `{"<id>": "http://127.0.0.1:PORT/"}` into `.dev-plugins.json` of the launcher's data
 * directory, where a launcher in development mode finds it. {@link RunningDevServer.close} removes
 * that entry again.
 *
 * @example
 * ```ts
 * const server = await startBareDevServer({ projectDir: process.cwd(), port: 5173, log: console.log });
 * console.log(`Dev server at ${server.url}`);
 * process.once('SIGINT', () => void server.close());
 * ```
 *
 * @throws CliError `NO_MANIFEST`, `INVALID_MANIFEST`, `INVALID_PROJECT` (package.json), `PORT_IN_USE`.
 */
export async function startBareDevServer(options: BareDevServerOptions): Promise<RunningDevServer> {
  const host = options.host ?? '127.0.0.1';
  const { log } = options;
  const manifest = await readPluginManifest(resolve(options.projectDir));
  // Files are opened refusing symbolic links on the way, so the folder itself is taken by its real path.
  const projectDir = await realpath(resolve(options.projectDir));
  const pluginId = manifest.id;
  const dataDirectory = launcherDataDirectory(options.launcherHome);

  const events = createDevEventHub(() => [pluginId]);
  let lastEvent: Exclude<DevServerEvent, { type: 'hello' }> | undefined;
  // The page at `/` shows the last build event, so the hub the reloader publishes to records it.
  const hub: DevEventHub = {
    publish(event) {
      if (event.type !== 'hello') lastEvent = event;
      events.publish(event);
    },
    handle: (request, response) => events.handle(request, response),
    close: () => events.close(),
  };

  let buildCommand: string | null = null;
  let devPluginsFile = join(dataDirectory, DEV_PLUGINS_FILE_NAME);
  // DNS-rebinding guard, as the launcher's backend has: only this machine's names for this server.
  const isOwnHost = createHostMatcher({ configuredHost: host });
  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const hostHeader = request.headers.host ?? '';
    const localPort = request.socket.localPort;
    if (!isOwnHost(hostHeader, localPort)) {
      const { error } = hostNotAllowedBody(hostHeader, localPort);
      sendError(response, 403, ErrorCode.HOST_NOT_ALLOWED, error.message);
      return;
    }
    const target = request.url ?? '';
    const path = target.split('?', 1)[0] ?? '';
    if (!path.startsWith('/')) {
      sendError(response, 400, ErrorCode.INVALID_ARGUMENT, 'The request target must be a path');
      return;
    }
    if (path === DEV_EVENTS_PATH) {
      hub.handle(request, response);
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      sendError(response, 405, ErrorCode.METHOD_NOT_ALLOWED, 'The dev server answers GET and HEAD only', { Allow: 'GET, HEAD' });
      return;
    }
    if (path === '/') {
      const page = renderIndexPage({ pluginId, frontend: manifest.frontend, buildCommand, lastEvent, devPluginsFile });
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': Buffer.byteLength(page), 'Cache-Control': 'no-store' });
      response.end(request.method === 'HEAD' ? undefined : page);
      return;
    }
    const found = await lookUpServedFile(projectDir, path.slice(1));
    if (found.kind === 'invalid') sendError(response, 400, ErrorCode.INVALID_ARGUMENT, found.message);
    else if (found.kind === 'missing') {
      sendError(
        response,
        404,
        ErrorCode.NOT_FOUND,
        `${found.path} is not a file of the plugin's package: not built yet, left out by .plugignore, hidden, or missing`,
      );
    } else await sendFile(request, response, projectDir, found.path);
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      log(`Request ${request.url} failed: ${(error as Error).message}`);
      if (!response.headersSent) sendError(response, 500, ErrorCode.INTERNAL_ERROR, 'The dev server could not answer; see its terminal');
      else response.destroy();
    });
  });
  const port = await listen(server, options.port, host);
  const url = `http://${loopbackUrlHost(host)}:${port}/`;
  const closeServer = async (): Promise<void> => {
    hub.close();
    server.closeAllConnections();
    await new Promise<void>((done) => server.close(() => done()));
  };

  let reloader: Awaited<ReturnType<typeof startHotReloader>>;
  try {
    reloader = await startHotReloader({
      pluginId,
      dir: projectDir,
      ...(options.buildCommand !== undefined ? { buildCommand: options.buildCommand } : {}),
      hub,
      log,
      initialBuild: true,
    });
    buildCommand = reloader.buildCommand;
  } catch (error) {
    await closeServer();
    throw error;
  }
  try {
    const written = await addDevPluginEntry(dataDirectory, pluginId, url);
    devPluginsFile = written.file;
    for (const problem of written.problems) log(`${written.file}: left out an unreadable entry: ${problem}`);
  } catch (error) {
    await reloader.close();
    await closeServer();
    throw new CliError(
      'DEV_PLUGINS_NOT_WRITTEN',
      `Could not write ${devPluginsFile}: ${(error as Error).message}. Pass --launcher-home <launcher data directory> (or set LAUNCHER_HOME).`,
    );
  }

  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    pluginId,
    devPluginsFile,
    buildCommand,
    close() {
      closing ??= (async () => {
        // The entry goes first: a launcher must not pick up a server that is going away.
        await removeDevPluginEntry(dataDirectory, pluginId, url).catch((error: Error) => log(`Could not update ${devPluginsFile}: ${error.message}`));
        await reloader.close();
        await closeServer();
      })();
      return closing;
    },
  };
}
