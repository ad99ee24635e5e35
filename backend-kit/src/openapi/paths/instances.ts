import { headerRef } from '../components/parameters.js';
import { jsonResponse } from '../components/responses.js';
import { schemaRef } from '../components/schema-ref.js';
import type { RouteDescription } from '../route-description.js';

const noStore = { headers: { 'Cache-Control': headerRef('CacheControl') } };

/** `routes/instances.ts`: the launcher's instances, read-only. */
export const instanceRoutes: readonly RouteDescription[] = [
  {
    method: 'get',
    path: '/api/instance',
    operationId: 'listInstances',
    tag: 'instances',
    summary: 'List instances',
    description:
      "Every instance of the `InstanceStore` (the launcher's own, or `backend/instances.json`), created by modpack installs or by the launcher. The same list for every caller; `X-Plugin-Id` is not read.",
    responses: {
      200: { description: 'The instances.', ...noStore, content: { 'application/json': { schema: { type: 'array', items: schemaRef('LauncherInstance') } } } },
    },
  },
  {
    method: 'get',
    path: '/api/instance/{instanceId}',
    operationId: 'getInstance',
    tag: 'instances',
    summary: 'One instance',
    responses: { 200: jsonResponse('The instance.', 'LauncherInstance', noStore) },
    errors: ['INSTANCE_NOT_FOUND'],
  },
];
