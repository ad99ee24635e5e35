import type { Context, Middleware } from 'koa';
import { ErrorCode } from '@plughost/host-sdk/core';
import { ERROR_STATUS } from '../http/error-status.js';
import type { ErrorBody } from './error-handler.js';

/** The names a request's `Host` header may carry (each with the backend's port). */
export interface HostCheckOptions {
  /** The port the backend listens on; read from the request's local port when omitted. */
  port?: number;
  /** The host the backend was configured with (`HOST`), besides the loopback names. */
  configuredHost?: string;
  /** More `host` or `host:port` values (a vendor's own names). */
  allowedHosts?: readonly string[];
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

function bracketIpv6(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** Whether a `Host` header (in any case) names this server listening on `port`. */
export type HostMatcher = (hostHeader: string, port: number | undefined) => boolean;

/**
 * The rule of {@link hostCheck} as a plain function, for servers that are not Koa apps (pluginctl's
 * debug harness stub): returns whether a `Host` header names this server listening on `port`.
 */
export function createHostMatcher(options: Omit<HostCheckOptions, 'port'> = {}): HostMatcher {
  const names = [...LOOPBACK_NAMES, ...(options.configuredHost ? [bracketIpv6(options.configuredHost.toLowerCase())] : [])];
  const extra = (options.allowedHosts ?? []).map((host) => host.toLowerCase());
  // Every accepted header for one port, built once per port: the check runs on every request.
  const acceptedByPort = new Map<number | undefined, ReadonlySet<string>>();
  const acceptedFor = (port: number | undefined): ReadonlySet<string> => {
    let accepted = acceptedByPort.get(port);
    if (accepted === undefined) {
      accepted = new Set([...extra, ...names.map((name) => `${name}:${port}`), ...extra.map((host) => `${host}:${port}`)]);
      // A server has one port (two with IPv4 and IPv6); a bound keeps a broken caller from growing it.
      if (acceptedByPort.size >= 16) acceptedByPort.clear();
      acceptedByPort.set(port, accepted);
    }
    return accepted;
  };
  return function isOwnHost(hostHeader, port) {
    return acceptedFor(port).has(hostHeader.toLowerCase());
  };
}

/** The 403 `HOST_NOT_ALLOWED` body for a refused `Host` header (status in `ERROR_STATUS`). */
export function hostNotAllowedBody(hostHeader: string, port: number | undefined): ErrorBody {
  return {
    error: {
      code: ErrorCode.HOST_NOT_ALLOWED,
      message: `Host "${hostHeader}" is not a name of this backend; use localhost or 127.0.0.1 with port ${port}`,
    },
  };
}

/**
 * The check of {@link hostCheck} for one request, for chains that run it without a middleware step
 * of its own: answers 403 `HOST_NOT_ALLOWED` and returns `true` when the `Host` header is not one
 * of the backend's names with its port (`port`, else the connection's local port).
 */
export function refuseForeignHost(ctx: Context, isOwnHost: HostMatcher, port: number | undefined = ctx.socket.localPort): boolean {
  const header = (ctx.get('Host') || '').toLowerCase();
  if (isOwnHost(header, port)) return false;
  ctx.status = ERROR_STATUS.HOST_NOT_ALLOWED;
  ctx.body = hostNotAllowedBody(header, port);
  return true;
}

/**
 * Refuses requests whose `Host` header is not one of the backend's own names with its port
 * (403 `HOST_NOT_ALLOWED`). A DNS-rebinding page (evil.example resolving to 127.0.0.1) sends its
 * own host name, so it can never read the backend's answers, health routes included. It answers
 * the refusal itself (rather than throwing) so vendors can mount it in front of their own pages,
 * which carry the API token, without the backend's error handler.
 */
export function hostCheck(options: HostCheckOptions = {}): Middleware {
  const isOwnHost = createHostMatcher(options);
  return async function checkHost(ctx, next) {
    if (refuseForeignHost(ctx, isOwnHost, options.port ?? ctx.socket.localPort)) return;
    await next();
  };
}
