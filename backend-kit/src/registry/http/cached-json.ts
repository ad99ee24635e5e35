import { createHash } from 'node:crypto';
import type { Context, Middleware } from 'koa';

/** How long clients and shared caches may reuse a read answer (spec "Limits": list 15 s, detail 300 s, metadata 60 s). */
export const CACHE_SECONDS = {
  metadata: 60,
  list: 15,
  detail: 300,
  downloadInfo: 60,
  reviews: 60,
  stats: 300,
} as const;

/** A strong entity tag of a JSON text: its SHA-256, base64url, quoted. */
export function entityTagOf(text: string | Uint8Array): string {
  return `"${createHash('sha256').update(text).digest('base64url')}"`;
}

/**
 * Answers `body` as JSON with `Cache-Control: public, max-age=<maxAgeSeconds>` and a strong
 * `ETag` computed from the exact bytes sent; a request whose `If-None-Match` names that tag gets
 * 304 without a body. Koa's `ctx.fresh` does the comparison (weak comparison, `*`, and a
 * request's `Cache-Control: no-cache` forcing a full answer, as RFC 9110 says for GET and HEAD).
 */
export function sendCachedJson(ctx: Context, body: unknown, maxAgeSeconds: number): void {
  const text = JSON.stringify(body);
  ctx.status = 200;
  ctx.type = 'application/json; charset=utf-8';
  ctx.set('Cache-Control', `public, max-age=${maxAgeSeconds}`);
  ctx.set('ETag', entityTagOf(text));
  ctx.body = text;
  if (ctx.fresh) {
    ctx.status = 304;
    ctx.body = null;
  }
}

/**
 * `Cache-Control: no-store` on every answer to a method other than GET and HEAD (check-updates,
 * telemetry, reviews, and the publishing routes): they depend on the request body or change state.
 */
export function noStoreForWrites(): Middleware {
  return async function noStoreForWrites(ctx, next) {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') ctx.set('Cache-Control', 'no-store');
    await next();
  };
}
