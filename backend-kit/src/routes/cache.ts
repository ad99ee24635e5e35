import Router from '@koa/router';
import type { BackendContext } from '../local-backend/context.js';

/** PLACEHOLDER: being written. */
export function createCacheRouter(_context: BackendContext): Router {
  return new Router({ strict: true, sensitive: true });
}
