import type Router from '@koa/router';
import type { Middleware } from 'koa';

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
  const scoped: Middleware = async (ctx, next) => {
    if (!owns(ctx.path)) return next();
    let index = -1;
    const dispatch = async (i: number): Promise<void> => {
      if (i <= index) throw new Error('next() called twice');
      index = i;
      const step = chain[i];
      if (step) await step(ctx, () => dispatch(i + 1));
    };
    await dispatch(0);
  };
  Object.defineProperty(scoped, 'name', { value: name });
  return scoped;
}
