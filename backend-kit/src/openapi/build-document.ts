import { PATH_PARAMETERS, SHARED_HEADERS, SHARED_PARAMETERS } from './components/parameters.js';
import { COMPONENT_SCHEMAS } from './components/schemas.js';
import { describeRoute } from './describe-route.js';
import type { HttpMethod, OpenApiDocument, OperationObject } from './openapi-types.js';
import { ALL_ROUTES } from './paths/index.js';
import type { RouteDescription } from './route-description.js';
import { TAGS } from './tags.js';

const DESCRIPTION = `The launcher's local HTTP backend (plugin-host SDK).

**Security.** Every request carries \`Authorization: Bearer <token>\` except the operations marked
with no security (health checks and plugin files) and CORS preflights; a missing or wrong token
gives 401 \`UNAUTHORIZED\`. Every request, public ones included, must carry a \`Host\` header naming
the backend (\`localhost\`, \`127.0.0.1\`, \`[::1]\` or a configured name, with its port), else 403
\`HOST_NOT_ALLOWED\` (DNS-rebinding guard). CORS: plugin files allow any origin; every other route
only the launcher's configured origins.

**Errors.** Every error body is \`{"error": {"code", "message"}}\` (schema \`ErrorBody\`) with the status
of its code. Any path without a route gives 404 \`NOT_FOUND\`; a known path with another method gives
405 \`METHOD_NOT_ALLOWED\` and an \`Allow\` header.`;

/**
 * Builds the OpenAPI 3.1 document from route descriptions (default: every route of the backend).
 * Fails loudly when two entries describe the same method and path, so a copy-paste slip cannot
 * silently hide a route.
 */
export function buildOpenApiDocument(routes: readonly RouteDescription[] = ALL_ROUTES): OpenApiDocument {
  const paths: Record<string, Partial<Record<HttpMethod, OperationObject>>> = {};
  const operationIds = new Set<string>();
  for (const route of routes) {
    const item = paths[route.path] ?? {};
    paths[route.path] = item;
    if (item[route.method]) throw new Error(`${route.method.toUpperCase()} ${route.path} is described twice`);
    if (operationIds.has(route.operationId)) throw new Error(`operationId ${route.operationId} is used twice`);
    operationIds.add(route.operationId);
    item[route.method] = describeRoute(route);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Plugin host local backend', version: '1', description: DESCRIPTION },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    tags: TAGS,
    security: [{ bearer: [] }],
    paths,
    components: {
      schemas: COMPONENT_SCHEMAS,
      parameters: { ...PATH_PARAMETERS, ...SHARED_PARAMETERS },
      headers: SHARED_HEADERS,
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'The launcher API token (`LAUNCHER_API_TOKEN`, or random per start; `backend.token`). Given to the launcher UI, never to plugin frames.',
        },
      },
    },
  };
}
