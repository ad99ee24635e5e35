/**
 * What the stub checks before any route, in the local backend's order (decisions section 2): the
 * peer must be on this machine, the `Host` header must name the stub (DNS-rebinding guard), CORS,
 * then a bearer token on every route the backend protects. The stub has no secret, so any token
 * passes; it is still required, so a host that forgets to send one fails here as it would against
 * a launcher.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ERROR_STATUS, createHostMatcher, hostNotAllowedBody, isLoopbackAddress, isPublicRequest } from '@plughost/backend-kit';
import { ErrorCode, PluginHostError } from '@plughost/host-sdk/core';
import { sendJson } from './http-io.js';

// The backend's CORS lists (backend-kit `middleware/cors.ts`), with PATCH for `/api/launcher/settings`.
const ALLOWED_HEADERS = 'Authorization, Content-Type, X-Plugin-Id, Range, If-None-Match, If-Modified-Since';
const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';
const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

function isPluginFilePath(path: string): boolean {
  return /^\/api\/plugins\/[^/]+\/files\//.test(path);
}

/**
 * The launcher page's origins: a page served from this machine (the harness page, a vendor's dev
 * server). The backend lists its origins in `allowedOrigins`; the stub has no such list, and no
 * secret to protect from a page on another loopback port.
 */
function isLoopbackOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_HOSTNAMES.has(url.hostname);
  } catch {
    return false;
  }
}

/** Options of {@link createRequestGuard}. */
export interface RequestGuardOptions {
  /** The host the stub was asked to bind, a name of the stub besides the loopback names. */
  readonly host: string;
  /** The port the stub listens on (for the `Host` check). */
  readonly port: () => number;
}

/** Checks a request; `true` when it may go on to the routes, `false` when the guard has answered it. */
export type RequestGuard = (request: IncomingMessage, response: ServerResponse, path: string) => boolean;

/** The stub's checks in front of its routes; throws `UNAUTHORIZED` for a request without a token. */
export function createRequestGuard(options: RequestGuardOptions): RequestGuard {
  const isOwnHost = createHostMatcher({ configuredHost: options.host });
  return function guardRequest(request, response, path) {
    // The connection's own address, never a header: a stub bound to 0.0.0.0 still serves only this machine.
    if (!isLoopbackAddress(request.socket.remoteAddress)) {
      sendJson(response, ERROR_STATUS.REMOTE_PEER_NOT_ALLOWED, {
        error: { code: ErrorCode.REMOTE_PEER_NOT_ALLOWED, message: 'The debug harness stub answers only this machine' },
      });
      return false;
    }
    const host = (request.headers.host ?? '').toLowerCase();
    if (!isOwnHost(host, options.port())) {
      sendJson(response, ERROR_STATUS.HOST_NOT_ALLOWED, hostNotAllowedBody(host, options.port()));
      return false;
    }

    const origin = request.headers.origin ?? '';
    const anyOrigin = isPluginFilePath(path);
    const allowed = anyOrigin || isLoopbackOrigin(origin);
    if (anyOrigin) {
      response.setHeader('Access-Control-Allow-Origin', '*');
      response.setHeader('Access-Control-Expose-Headers', 'Content-Length, Content-Range, ETag, Accept-Ranges');
    } else if (allowed) {
      response.setHeader('Access-Control-Allow-Origin', origin);
      response.setHeader('Vary', 'Origin');
    }
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined) {
      if (allowed) {
        response.setHeader('Access-Control-Allow-Methods', ALLOWED_METHODS);
        response.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS);
        response.setHeader('Access-Control-Max-Age', '600');
      }
      response.writeHead(204);
      response.end();
      return false;
    }

    if (!isPublicRequest(request.method ?? 'GET', path) && !/^Bearer \S+$/.test(request.headers.authorization ?? '')) {
      response.setHeader('WWW-Authenticate', 'Bearer');
      throw new PluginHostError('UNAUTHORIZED', 'Missing bearer token; send Authorization: Bearer <any token> (the harness stub accepts every token)');
    }
    return true;
  };
}
