import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { composeMiddleware } from './compose-middleware.js';

/**
 * The router's middleware adds `params` and `router` to the context it receives; Koa's plain
 * Middleware type does not know that, so a composed chain sees it through this one cast.
 */
export function routesOf(router: Router): Middleware[] {
  return [router.routes() as unknown as Middleware, router.allowedMethods({ throw: false }) as unknown as Middleware];
}

/**
 * One Koa middleware running `chain` in order for the paths `owns` accepts and passing every other
 * path straight on, so a vendor can mount the local backend or the registry in front of its own
 * routes without their error handling or CORS touching anything else.
 */
export function pathScopedChain(owns: (path: string) => boolean, chain: readonly Middleware[], name: string): Middleware {
  const run = composeMiddleware(chain);
  // The chain's last `next` ends it: the vendor's routes never see a path the chain owns.
  const scoped: Middleware = async (ctx, next) => {
    if (!owns(ctx.path)) return next();
    await run(ctx);
  };
  Object.defineProperty(scoped, 'name', { value: name });
  return scoped;
}
