import type { Next } from 'koa';

/** One step of a composed chain: a Koa middleware for the context type `Context`. */
export type ChainStep<Context> = (ctx: Context, next: Next) => unknown;

/** Where one run of a composed chain is: the last step entered (a `next` may be called once). */
interface ChainRun {
  index: number;
}

function runStep<Context>(chain: readonly ChainStep<Context>[], ctx: Context, next: Next | undefined, run: ChainRun, i: number): Promise<void> {
  if (i <= run.index) return Promise.reject(new Error('next() called multiple times'));
  run.index = i;
  const step = i === chain.length ? next : chain[i];
  if (step === undefined) return Promise.resolve();
  try {
    return Promise.resolve(step(ctx, () => runStep(chain, ctx, next, run, i + 1))) as Promise<void>;
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * Koa's composition (what `koa-compose` does; backend-kit does not depend on it): one function
 * running `chain` in order, each step's `next` calling the following one and the last step's
 * `next` the caller's. Calling one `next` twice rejects, as in Koa. Build it once and call it per
 * request: composing per request is part of what made `@koa/router`'s dispatch costly.
 */
export function composeMiddleware<Context>(chain: readonly ChainStep<Context>[]): (ctx: Context, next?: Next) => Promise<void> {
  const steps = [...chain];
  return function composed(ctx, next) {
    return runStep(steps, ctx, next, { index: -1 }, 0);
  };
}
