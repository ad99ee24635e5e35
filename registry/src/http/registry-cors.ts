import type { Middleware } from 'koa';

const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';
const ALLOWED_HEADERS = 'Authorization, Content-Type, If-None-Match';
const EXPOSED_HEADERS = 'ETag, Content-Length, Retry-After';

/**
 * CORS for the registry API: any origin may call it. The registry is a public catalog that
 * launcher front ends query directly (`GET /registry` of every configured source), and it never
 * uses cookies: writes carry `Authorization: Bearer`, which a page can only send with a token it
 * already holds, so `*` grants a foreign page nothing it could not do from a server. Preflights are
 * answered here with 204 and never reach a route.
 */
export function registryCors(): Middleware {
  return async function applyRegistryCors(ctx, next) {
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.set('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    if (ctx.method === 'OPTIONS' && ctx.get('Access-Control-Request-Method')) {
      ctx.set('Access-Control-Allow-Methods', ALLOWED_METHODS);
      ctx.set('Access-Control-Allow-Headers', ALLOWED_HEADERS);
      ctx.set('Access-Control-Max-Age', '600');
      ctx.status = 204;
      return;
    }
    await next();
  };
}
