import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createHostMatcher } from '@plughost/backend-kit';
import { DEV_EVENTS_PATH, ErrorCode } from '@plughost/host-sdk/core';
import { CliError } from '../cli-error.js';
import type { DevEventHub } from '../dev/index.js';
import { sendError } from '../dev/http-answer.js';
import type { HarnessAssets } from './assets.js';
import { createBackendProxy } from './backend-proxy.js';
import { renderHarnessPage } from './page.js';
import { HARNESS_PATHS, type HarnessBuildEvent, type HarnessPageConfig } from './page-config.js';

/** Options of {@link startHarnessServer}. */
export interface HarnessServerOptions {
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** The stub backend's origin; `/api/*` goes there. */
  readonly stubUrl: string;
  /** The build events' stream (`/__pluginctl/events`). */
  readonly hub: DevEventHub;
  /** The page's files. */
  readonly assets: HarnessAssets;
  /** What the page's header shows about the stub and the mock. */
  readonly page: Omit<HarnessPageConfig, 'builds'>;
  /** The last build event of each plugin now (the page and `/__pluginctl/builds` show it). */
  readonly builds: () => readonly HarnessBuildEvent[];
  readonly log: (line: string) => void;
}

/** The harness server, listening. */
export interface RunningHarnessServer {
  /** `http://HOST:PORT/`: the page. */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

const TEXT_TYPES = {
  html: 'text/html; charset=utf-8',
  script: 'text/javascript; charset=utf-8',
  stylesheet: 'text/css; charset=utf-8',
  json: 'application/json; charset=utf-8',
} as const;

function send(request: IncomingMessage, response: ServerResponse, type: string, body: string, cacheControl: string): void {
  response.writeHead(200, {
    'Content-Type': type,
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': cacheControl,
    'X-Content-Type-Options': 'nosniff',
  });
  response.end(request.method === 'HEAD' ? undefined : body);
}

/** The harness's own files: the page, its script and stylesheet, the guest runtime, the build snapshot. */
function ownFile(options: HarnessServerOptions, path: string): { type: string; body: () => string; cacheControl: string } | undefined {
  // The page and the snapshot change with every build; the bundled files only with a new pluginctl,
  // which may run on the same port: revalidate them too.
  switch (path) {
    case '/':
    case '/index.html':
      return { type: TEXT_TYPES.html, body: () => renderHarnessPage({ ...options.page, builds: options.builds() }), cacheControl: 'no-store' };
    case HARNESS_PATHS.builds:
      return { type: TEXT_TYPES.json, body: () => JSON.stringify(options.builds()), cacheControl: 'no-store' };
    case HARNESS_PATHS.script:
      return { type: TEXT_TYPES.script, body: () => options.assets.script, cacheControl: 'no-cache' };
    case HARNESS_PATHS.stylesheet:
      return { type: TEXT_TYPES.stylesheet, body: () => options.assets.stylesheet, cacheControl: 'no-cache' };
    case HARNESS_PATHS.guestRuntime:
      return { type: TEXT_TYPES.script, body: () => options.assets.guestRuntime, cacheControl: 'no-cache' };
    default:
      return undefined;
  }
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      reject(
        error.code === 'EADDRINUSE' || error.code === 'EACCES'
          ? new CliError(
              'PORT_IN_USE',
              `The harness cannot listen on ${host}:${port} (${error.code}: another pluginctl dev?). Stop it, or pass --harness-port <n> (or set PLUGINCTL_HARNESS_PORT); 0 picks a free port.`,
            )
          : error,
      );
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : port);
    });
  });
}

/**
 * Starts the harness's HTTP server (port 1420 by default, decisions 10): the harness page and its
 * files, the build events at `/__pluginctl/events`, and every `/api/*` request forwarded to the
 * stub backend, so the page and its plugins talk to one origin as a launcher page talks to its
 * backend. Like the launcher's backend it answers only requests addressed to this machine's names
 * for it (`Host` check against DNS rebinding).
 *
 * @throws CliError `PORT_IN_USE` when the port is taken.
 */
export async function startHarnessServer(options: HarnessServerOptions): Promise<RunningHarnessServer> {
  const forward = createBackendProxy({ upstream: options.stubUrl, log: options.log });
  const isOwnHost = createHostMatcher({ configuredHost: options.host });
  let port = options.port;
  const server = createServer((request, response) => {
    const hostHeader = request.headers.host ?? '';
    if (!isOwnHost(hostHeader, port)) {
      sendError(response, 403, ErrorCode.HOST_NOT_ALLOWED, `Host "${hostHeader}" is not a name of this harness; open http://127.0.0.1:${port}/`);
      return;
    }
    const path = (request.url ?? '').split('?', 1)[0] ?? '';
    if (path === '/api' || path.startsWith('/api/')) {
      forward(request, response);
      return;
    }
    if (path === DEV_EVENTS_PATH) {
      options.hub.handle(request, response);
      return;
    }
    const file = ownFile(options, path);
    if (!file) {
      sendError(response, 404, ErrorCode.NOT_FOUND, `The harness has no page ${path}: open http://127.0.0.1:${port}/`);
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      sendError(response, 405, ErrorCode.METHOD_NOT_ALLOWED, `${path} answers GET and HEAD only`, { Allow: 'GET, HEAD' });
      return;
    }
    send(request, response, file.type, file.body(), file.cacheControl);
  });
  port = await listen(server, options.port, options.host);
  // A wildcard address answers on loopback too; a page needs a name it can open.
  const urlHost = options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${urlHost}:${port}/`,
    port,
    async close() {
      // Event streams never end by themselves: the hub ends them, then open connections go.
      options.hub.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
