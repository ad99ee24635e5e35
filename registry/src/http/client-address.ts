import type { IncomingMessage } from 'node:http';
import type { Context, Middleware } from 'koa';
import { normalizeAddress } from './ip-address.js';
import type { TrustedProxies } from './trusted-proxies.js';

// Keyed by the Node request, so the address lives exactly as long as the request does.
const resolved = new WeakMap<IncomingMessage, string>();

/**
 * Works out each request's client address once, from the connection and, behind a listed proxy,
 * `X-Forwarded-For` (see {@link TrustedProxies.clientAddress}), for {@link clientAddressOf}. The
 * registry does not use Koa's `ctx.ip`: that believes `X-Forwarded-For` from anyone whenever the
 * embedding app sets `app.proxy`, and the registry must not depend on how its host app is set up.
 */
export function registryClientAddress(trustedProxies: TrustedProxies): Middleware {
  return async function registryClientAddress(ctx, next) {
    resolved.set(ctx.req, trustedProxies.clientAddress(ctx.req.socket.remoteAddress ?? '', ctx.get('X-Forwarded-For') || undefined));
    await next();
  };
}

/**
 * The client address of a request (normalized, see `normalizeAddress`): what rate limits, login
 * throttling and telemetry reporter networks count. Without {@link registryClientAddress} in
 * front, it is the connection's peer address, never a header.
 */
export function clientAddressOf(ctx: Context): string {
  const peer = ctx.req.socket.remoteAddress ?? '';
  return resolved.get(ctx.req) ?? normalizeAddress(peer) ?? (peer === '' ? 'unknown' : peer);
}
