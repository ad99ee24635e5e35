import type { Context } from 'koa';
import type { RegistryContext } from '../registry-context.js';

/**
 * The public API root (`https://store.example/api/v1`): `options.baseUrl` when configured, else
 * the request's own scheme and host (Koa 3's `ctx.origin` is the `Origin` header, so it is built
 * from `ctx.protocol` and `ctx.host`, which honour `X-Forwarded-*` only when `app.proxy` is set)
 * followed by whatever prefix the router is mounted under, found by removing the route's own path
 * (`routePath`, e.g. `/auth/device/code`) from the end of the request path.
 */
export function apiRootOf(ctx: Context, context: RegistryContext, routePath: string): string {
  if (context.options.baseUrl) return context.options.baseUrl.replace(/\/+$/, '');
  const prefix = ctx.path.endsWith(routePath) ? ctx.path.slice(0, ctx.path.length - routePath.length) : '';
  return `${ctx.protocol}://${ctx.host}${prefix}`;
}
