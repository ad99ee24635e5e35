import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { PluginHostError } from '@plughost/host-sdk/core';
import type { BackendLogger } from '../http/logger.js';
import { createRouteDispatch } from '../http/route-dispatch.js';
import { compileRouteTable } from '../http/route-table.js';
import { createTokenCheck } from '../middleware/bearer-token.js';
import { createCorsResponder } from '../middleware/cors.js';
import { createErrorResponder } from '../middleware/error-handler.js';
import { createHostMatcher, refuseForeignHost, type HostCheckOptions } from '../middleware/host-check.js';

/** What {@link createApiMiddleware} serves, and with which rules. */
export interface ApiMiddlewareOptions {
  /** The request paths the backend answers (`/api/...`); every other path goes to the vendor's app. */
  owns(path: string): boolean;
  /** The routers, in precedence order (an earlier router's route wins over a later one's). */
  readonly routers: readonly Router[];
  readonly token: string;
  readonly allowedOrigins: readonly string[];
  readonly hosts: Omit<HostCheckOptions, 'port'>;
  readonly logger: BackendLogger;
}

/** Gives requests no route answered (404) or answered only with `Allow` (405) an error body. */
function throwIfUnanswered(ctx: Context): void {
  if (ctx.body !== undefined && ctx.body !== null) return;
  if (ctx.status === 404) throw new PluginHostError('NOT_FOUND', `No route ${ctx.method} ${ctx.path}`);
  if (ctx.status === 405) {
    throw new PluginHostError('METHOD_NOT_ALLOWED', `${ctx.method} is not allowed on ${ctx.path}; allowed: ${ctx.response.get('Allow')}`);
  }
}

/**
 * The local backend's `/api` as one middleware: the error bodies of decisions section 3 around
 * the Host check, CORS and the bearer token of section 2 (in that order: a refused host learns
 * nothing, a preflight needs no token), then the routes, dispatched through a table compiled
 * once ({@link compileRouteTable}). The checks are the exported middleware's own rules, run as
 * plain calls: one awaited step per request instead of one per check.
 */
export function createApiMiddleware(options: ApiMiddlewareOptions): Middleware {
  const isOwnHost = createHostMatcher(options.hosts);
  const answerCors = createCorsResponder(options.allowedOrigins);
  const checkToken = createTokenCheck(options.token);
  const answerError = createErrorResponder(options.logger);
  const dispatchRoute = createRouteDispatch(compileRouteTable(options.routers));
  const { owns } = options;
  return async function localBackend(ctx, next) {
    if (!owns(ctx.path)) return next();
    try {
      if (refuseForeignHost(ctx, isOwnHost) || answerCors(ctx)) return;
      checkToken(ctx);
      await dispatchRoute(ctx);
      throwIfUnanswered(ctx);
    } catch (error) {
      answerError(ctx, error);
    }
  };
}
