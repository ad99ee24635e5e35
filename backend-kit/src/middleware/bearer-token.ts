import { timingSafeEqual } from 'node:crypto';
import type { Middleware } from 'koa';
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
 * Requires `Authorization: Bearer <token>` on every `/api` request except the public ones
 * (401 `UNAUTHORIZED`). The token is compared in constant time.
 */
export function bearerToken(token: string): Middleware {
  const expected = Buffer.from(token, 'utf8');
  return async function requireToken(ctx, next) {
    if (!isPublicRequest(ctx.method, ctx.path)) {
      const match = /^Bearer (\S+)$/.exec(ctx.get('Authorization'));
      if (!match?.[1] || !sameToken(match[1], expected)) {
        ctx.set('WWW-Authenticate', 'Bearer');
        throw new PluginHostError('UNAUTHORIZED', 'Missing or wrong bearer token; send Authorization: Bearer <the launcher API token>');
      }
    }
    await next();
  };
}
