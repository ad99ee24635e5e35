import Router from '@koa/router';

/** PLACEHOLDER: serves `/openapi/v1.json` (being written). */
export function createOpenApiRouter(): Router {
  return new Router({ strict: true, sensitive: true });
}
