import { timingSafeEqual } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import { PluginHostError } from '@plughost/host-sdk/core';
import { isPluginFilesPath } from '../http/plugin-file-request.js';

/** Requests that need no token: health checks, plugin files (frames load them), CORS preflights. */
export function isPublicRequest(method: string, path: string): boolean {
  if (method === 'OPTIONS') return true;
  if (method === 'GET' && (path === '/api/health' || path === '/api/ping')) return true;
  return (method === 'GET' || method === 'HEAD') && isPluginFilesPath(path);
}

function sameToken(given: string, expected: Buffer): boolean {
  const bytes = Buffer.from(given, 'utf8');
  // timingSafeEqual needs equal lengths; comparing lengths first leaks only the length.
  return bytes.length === expected.length && timingSafeEqual(bytes, expected);
}

/**
 * The check of {@link bearerToken} for one request, for chains that run it without a middleware
 * step of its own: throws 401 `UNAUTHORIZED` (with `WWW-Authenticate: Bearer`) unless the request
 * is public or carries the token.
 */
export type TokenCheck = (ctx: Context) => void;

/** Builds the {@link TokenCheck} of {@link bearerToken} for `token`. */
export function createTokenCheck(token: string): TokenCheck {
  const expected = Buffer.from(token, 'utf8');
  return function checkToken(ctx) {
    if (isPublicRequest(ctx.method, ctx.path)) return;
    const match = /^Bearer (\S+)$/.exec(ctx.get('Authorization'));
    if (!match?.[1] || !sameToken(match[1], expected)) {
      ctx.set('WWW-Authenticate', 'Bearer');
      throw new PluginHostError('UNAUTHORIZED', 'Missing or wrong bearer token; send Authorization: Bearer <the launcher API token>');
    }
  };
}

/**
 * Requires `Authorization: Bearer <token>` on every `/api` request except the public ones
 * (401 `UNAUTHORIZED`). The token is compared in constant time.
 */
export function bearerToken(token: string): Middleware {
  const checkToken = createTokenCheck(token);
  return async function requireToken(ctx, next) {
    checkToken(ctx);
    await next();
  };
}
