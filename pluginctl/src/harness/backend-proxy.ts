import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import { ErrorCode } from '@plughost/host-sdk/core';
import { sendError } from '../dev/http-answer.js';

/**
 * Headers of one connection, not of the message (RFC 9110, section 7.6.1): a proxy never forwards
 * them. `host` is set for the upstream; `content-length` and `transfer-encoding` are left to Node,
 * which frames each side's body itself (a streamed answer stays streamed).
 */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
]);

function forwardable(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  // Headers named in `Connection` are hop-by-hop too.
  const named = new Set(
    String(headers.connection ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean),
  );
  const kept: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name) && !named.has(name)) kept[name] = value;
  }
  return kept;
}

/** Why the stub gave no answer, in words, with the system's own text: `nothing listens there (connect ECONNREFUSED ...)`. */
function whyNoAnswer(error: NodeJS.ErrnoException): string {
  if (error.code === 'ECONNREFUSED') return `nothing listens there (${error.message})`;
  if (error.code === 'ECONNRESET') return `it closed the connection (${error.message})`;
  return error.message;
}

/**
 * The message of the 502 the page gets when the stub gave no answer: which stub, which request
 * (path without the query), why, and what to do. The code stays `INTERNAL_ERROR`: no code of the
 * SDK means "the debug harness lost its stub" (`PROXY_UPSTREAM_FAILED` is the plugin proxy's, and
 * would send a plugin author looking at the URL their plugin fetched).
 */
export function stubUnreachableMessage(upstream: string, request: Pick<IncomingMessage, 'method' | 'url'>, error: NodeJS.ErrnoException): string {
  const path = (request.url ?? '/').split('?')[0];
  return (
    `The stub backend at ${upstream} did not answer ${request.method} ${path}: ${whyNoAnswer(error)}. ` +
    'The stub runs in the same pluginctl dev process as this page: look in its terminal for a "stub error" line, then restart pluginctl dev (Ctrl+C, run it again) and reload this page.'
  );
}

/** Options of {@link createBackendProxy}. */
export interface BackendProxyOptions {
  /** The stub backend's origin, `http://127.0.0.1:PORT`. */
  readonly upstream: string;
  readonly log?: (line: string) => void;
}

/**
 * A streaming reverse proxy to the stub backend: the harness page talks to its own origin (a
 * launcher page talks to its backend's), and every `/api/*` request goes on to the stub with its
 * method, path and query, headers and body, and comes back with the stub's status, headers and
 * body. Bodies are piped, never buffered, so uploads and server-sent event streams (the proxy's
 * simulated stream, downloads) pass chunk by chunk. A client that goes away ends the upstream
 * request; a stub that does not answer gives 502 (`INTERNAL_ERROR`, see {@link stubUnreachableMessage}).
 *
 * Plugin files get `Cache-Control: no-cache` when the stub sets no caching rule: the browser then
 * asks again every time, so a frame created after a rebuild never runs a script from before it.
 */
export function createBackendProxy(options: BackendProxyOptions): (request: IncomingMessage, response: ServerResponse) => void {
  const upstream = new URL(options.upstream);
  return function forwardToStub(request, response) {
    const outgoing = httpRequest(
      {
        protocol: upstream.protocol,
        hostname: upstream.hostname,
        port: upstream.port,
        method: request.method,
        path: request.url,
        headers: { ...forwardable(request.headers), host: upstream.host },
      },
      (answer: IncomingMessage) => {
        const headers = forwardable(answer.headers);
        if (headers['cache-control'] === undefined) headers['cache-control'] = 'no-cache';
        response.writeHead(answer.statusCode ?? 502, answer.statusMessage, headers);
        // Event streams: send the headers now, not with the first event.
        response.flushHeaders();
        answer.pipe(response);
        answer.once('error', () => response.destroy());
      },
    );
    outgoing.once('error', (error) => {
      if (response.headersSent) {
        response.destroy();
        return;
      }
      const message = stubUnreachableMessage(options.upstream, request, error);
      options.log?.(`Harness: ${message}`);
      sendError(response, 502, ErrorCode.INTERNAL_ERROR, message);
    });
    // The page went away (a closed event stream, a navigation): stop the upstream request too.
    response.once('close', () => {
      if (!response.writableFinished) outgoing.destroy();
    });
    request.pipe(outgoing);
  };
}
