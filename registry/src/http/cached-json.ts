import { createHash } from 'node:crypto';
import type { Context, Middleware } from 'koa';

/** How long clients and shared caches may reuse a read answer (spec "Limits": list 15 s, detail 300 s, metadata 60 s). */
export const CACHE_SECONDS = {
  metadata: 60,
  list: 15,
  detail: 300,
  downloadInfo: 60,
  reviews: 15,
  stats: 300,
} as const;

/** A strong entity tag of a JSON text: its SHA-256, base64url, quoted. */
export function entityTagOf(text: string | Uint8Array): string {
  return `"${createHash('sha256').update(text).digest('base64url')}"`;
}

/**
 * True when the request's `If-None-Match` names `etag` (or is `*`), with the weak comparison RFC
 * 9110 section 13.1.2 prescribes for it. Koa's `ctx.fresh` is not used: it ignores the header when
 * the request says `Cache-Control: no-cache`, which `fetch` adds to every request carrying
 * `If-None-Match`; that directive addresses caches, while this is the origin, which must answer
 * a matching condition with 304.
 */
export function ifNoneMatchHits(ctx: Context, etag: string): boolean {
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return false;
  const header = ctx.get('If-None-Match').trim();
  if (header === '') return false;
  if (header === '*') return true;
  const opaque = (tag: string): string => tag.trim().replace(/^W\//, '');
  const wanted = opaque(etag);
  return header.split(',').some((tag) => opaque(tag) === wanted);
}

/**
 * Answers `body` as JSON with `Cache-Control: public, max-age=<maxAgeSeconds>` and a strong
 * `ETag` computed from the exact bytes sent; a request whose `If-None-Match` names that tag gets
 * 304 without a body.
 */
export function sendCachedJson(ctx: Context, body: unknown, maxAgeSeconds: number): void {
  const text = JSON.stringify(body);
  sendCachedJsonText(ctx, text, entityTagOf(text), maxAgeSeconds);
}

/**
 * {@link sendCachedJson} of an answer serialized earlier: `text` is the JSON and `etag` its
 * {@link entityTagOf}, computed once by whoever kept them (the plugin list's answer cache).
 */
export function sendCachedJsonText(ctx: Context, text: string, etag: string, maxAgeSeconds: number): void {
  ctx.status = 200;
  ctx.type = 'application/json; charset=utf-8';
  ctx.set('Cache-Control', `public, max-age=${maxAgeSeconds}`);
  ctx.set('ETag', etag);
  ctx.body = text;
  if (ifNoneMatchHits(ctx, etag)) {
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
