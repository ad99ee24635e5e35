import type { RouteDescription } from '../route-description.js';

/** `openapi/openapi-router.ts`: this description itself (development mode only). */
export const openApiRoutes: readonly RouteDescription[] = [
  {
    method: 'get',
    path: '/openapi/v1.json',
    operationId: 'getOpenApiDescription',
    tag: 'openapi',
    summary: 'This OpenAPI description',
    description: 'Served only when the backend runs with `development: true`; 404 otherwise. Like every non-public route it needs the token.',
    responses: {
      200: { description: 'The OpenAPI 3.1 document.', content: { 'application/json': { schema: { type: 'object', required: ['openapi', 'paths'] } } } },
    },
  },
];
