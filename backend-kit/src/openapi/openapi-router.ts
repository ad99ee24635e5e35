import Router from '@koa/router';
import { buildOpenApiDocument } from './build-document.js';

/**
 * `GET /openapi/v1.json`: the OpenAPI 3.1 description of every local backend route. Mounted by
 * `createLocalBackend` only in development mode, so a release launcher does not advertise its
 * API surface. The document is built once, on first request.
 */
export function createOpenApiRouter(): Router {
  const router = new Router({ strict: true, sensitive: true });
  let body: string | undefined;
  router.get('/openapi/v1.json', (ctx) => {
    body ??= JSON.stringify(buildOpenApiDocument());
    ctx.type = 'application/json';
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });
  return router;
}
