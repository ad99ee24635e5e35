import type { Context, Middleware } from 'koa';
import { isPluginFilesPath } from '../http/plugin-file-request.js';

const ALLOWED_HEADERS = 'Authorization, Content-Type, X-Plugin-Id, Range, If-None-Match, If-Modified-Since';
const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';

/**
 * The CORS rule of {@link cors} for one request, for chains that run it without a middleware step
 * of its own: sets the response's CORS headers, and answers a preflight (204) itself, returning
 * `true` when it did (nothing else may then run).
 */
export type CorsResponder = (ctx: Context) => boolean;

/** Builds the {@link CorsResponder} of {@link cors} for `allowedOrigins`. */
export function createCorsResponder(allowedOrigins: readonly string[]): CorsResponder {
  const origins = new Set(allowedOrigins);
  return function answerCors(ctx) {
    const origin = ctx.get('Origin');
    // Plugin files are read by sandboxed frames, whose origin is `null`: any origin may read them.
    const anyOrigin = isPluginFilesPath(ctx.path);
    const allowed = anyOrigin || (origin !== '' && origins.has(origin));
    if (anyOrigin) {
      ctx.set('Access-Control-Allow-Origin', '*');
      ctx.set('Access-Control-Expose-Headers', 'Content-Length, Content-Range, ETag, Accept-Ranges');
    } else if (allowed) {
      ctx.set('Access-Control-Allow-Origin', origin);
      ctx.vary('Origin');
    }
    if (ctx.method === 'OPTIONS' && ctx.get('Access-Control-Request-Method')) {
      if (allowed) {
        ctx.set('Access-Control-Allow-Methods', ALLOWED_METHODS);
        ctx.set('Access-Control-Allow-Headers', ALLOWED_HEADERS);
        ctx.set('Access-Control-Max-Age', '600');
      }
      ctx.status = 204;
      return true;
    }
    return false;
  };
}

/**
 * CORS per decisions section 2: plugin files answer `Access-Control-Allow-Origin: *`; every other
 * route allows only the launcher's own origins (`allowedOrigins`). Preflights are answered here
 * with 204 and never reach a route.
 */
export function cors(allowedOrigins: readonly string[]): Middleware {
  const answerCors = createCorsResponder(allowedOrigins);
  return async function applyCors(ctx, next) {
    if (answerCors(ctx)) return;
    await next();
  };
}
