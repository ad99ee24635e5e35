import type { Context } from 'koa';

/**
 * An AbortSignal that fires when the caller's connection closes before the answer is complete, so
 * upstream work done for it (a proxied request, a store download) stops instead of running on for
 * nobody.
 */
export function callerGoneSignal(ctx: Context): AbortSignal {
  const controller = new AbortController();
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) controller.abort();
  });
  return controller.signal;
}
