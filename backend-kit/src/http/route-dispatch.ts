import type { RouterContext } from '@koa/router';
import type { Context } from 'koa';
import type { RouteEntry, RouteTable } from './route-table.js';

/** A layer that matched the request, with its captures. */
interface Matched {
  readonly entry: RouteEntry;
  readonly captures: string[];
}

/** Sets what `@koa/router` gives a layer's middleware before it runs: params (merged, decoded), captures, route path. */
function enter(ctx: RouterContext, path: string, { entry, captures }: Matched): void {
  const { layer } = entry;
  ctx.router = entry.router;
  ctx.captures = captures;
  ctx.request.params = layer.params(path, captures, ctx.params);
  ctx.params = ctx.request.params;
  ctx.routerPath = entry.routePath;
  ctx._matchedRoute = entry.routePath;
  if (layer.name) {
    ctx.routerName = layer.name;
    ctx._matchedRouteName = layer.name;
  }
}

function runFrom(ctx: RouterContext, path: string, matched: readonly Matched[], index: number): Promise<void> {
  const current = matched[index];
  if (current === undefined) return Promise.resolve();
  enter(ctx, path, current);
  return current.entry.run(ctx, () => runFrom(ctx, path, matched, index + 1));
}

/**
 * What `allowedMethods()` answers when no route answered: 501 with `Allow` for a method the
 * routers do not implement, 200 with `Allow` for `OPTIONS`, 405 with `Allow` for a path that has
 * routes for other methods. `Allow` lists the methods of every layer matching the path, in
 * declaration order. A path no route matches keeps its 404.
 */
function answerUnrouted(ctx: Context, table: RouteTable, path: string, method: string): void {
  const allowed = new Set<string>();
  for (const entry of table.candidates(path)) {
    if (entry.layer.methods.length > 0 && entry.captures(path) !== null) for (const name of entry.layer.methods) allowed.add(name);
  }
  const allow = [...allowed].join(', ');
  if (!table.implementedMethods.has(method)) {
    ctx.status = 501;
    ctx.set('Allow', allow);
  } else if (method === 'OPTIONS' && allowed.size > 0) {
    ctx.status = 200;
    ctx.body = '';
    ctx.set('Allow', allow);
  } else if (allowed.size > 0 && !allowed.has(method)) {
    ctx.status = 405;
    ctx.set('Allow', allow);
  }
}

/**
 * Dispatches a request through `table` as `router.routes()` followed by `router.allowedMethods()`
 * would: every path middleware and route of the method that matches runs in declaration order
 * (the first route that does not call `next` ends it, so earlier routes take precedence), with
 * the routers' parameters, percent-decoding and parameter middleware; a request no route of its
 * method matches gets `allowedMethods`' 501, 405 or `OPTIONS` answer, else stays 404. Path
 * middleware alone never runs without a route. Nothing is composed per request.
 *
 * Sets `ctx.params`, `ctx.request.params`, `ctx.captures`, `ctx.router`, `ctx.routerPath`,
 * `ctx.routerName`, `ctx._matchedRoute(Name)` and `ctx.routeMatched` as the router does; not
 * `ctx.matched`, which only `allowedMethods` read.
 */
export function createRouteDispatch(table: RouteTable): (ctx: Context) => Promise<void> {
  return async function dispatchRoute(ctx) {
    const path = ctx.path;
    const method = ctx.method.toUpperCase();
    const matched: Matched[] = [];
    let routed = false;
    for (const entry of table.candidates(path)) {
      // Routes of other methods are tested only if no route answers (for `Allow`, below).
      if (entry.isRoute && !entry.layer.methods.includes(method)) continue;
      const captures = entry.captures(path);
      if (captures === null) continue;
      matched.push({ entry, captures });
      if (entry.isRoute) routed = true;
    }
    const routerContext = ctx as RouterContext;
    routerContext.routeMatched = routed;
    if (routed) await runFrom(routerContext, path, matched, 0);
    if (ctx.status === 404) answerUnrouted(ctx, table, path, method);
  };
}
