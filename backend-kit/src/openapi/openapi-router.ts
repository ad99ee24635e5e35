import Router from '@koa/router';
import { buildOpenApiDocument } from './build-document.js';
import { ALL_ROUTES } from './paths/index.js';
import type { RouteDescription } from './route-description.js';

/**
 * `GET /openapi/v1.json`: the OpenAPI 3.1 description of every local backend route. Mounted by
 * `createLocalBackend` only in development mode, so a release launcher does not advertise its
 * API surface. The document is built once, on first request.
 *
 * @param launcherRoutes - The descriptions of the vendor's launcher routes, listed after the backend's own.
 */
export function createOpenApiRouter(launcherRoutes: readonly RouteDescription[] = []): Router {
  const router = new Router({ strict: true, sensitive: true });
  let body: string | undefined;
  router.get('/openapi/v1.json', (ctx) => {
    body ??= JSON.stringify(buildOpenApiDocument([...ALL_ROUTES, ...launcherRoutes]));
    ctx.type = 'application/json';
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });
  return router;
}
