import { backendError } from '../../core/bridge/bridge-errors.js';
import { resolveBackendEndpoint } from '../../core/bridge/backend-endpoint.js';
import { BridgeFailure } from '../../host/backend-client.js';
import type { BridgeHandler } from '../lazy-handlers.js';

/**
 * `callBackend(endpoint, data?)`: GET without `data`, POST with it; `_method` inside `data`
 * chooses another method and is not sent. The endpoint is checked by `resolveBackendEndpoint`
 * (decisions section 2): guarded routes answer `Permission denied: requires <id>`, unknown
 * ones `Backend error: 404`, and only the vendor's launcher routes are forwarded.
 */
export const handlers = {
  callBackend: async ({ plugin, services }, args) => {
    const decision = resolveBackendEndpoint(args[0], { allowedLauncherRoutes: services.allowedLauncherRoutes });
    if (decision.kind !== 'allowed') throw new BridgeFailure(decision.error);
    const data = args[1];
    let method = data === undefined || data === null ? 'GET' : 'POST';
    let body: unknown = data ?? undefined;
    if (typeof data === 'object' && data !== null && !Array.isArray(data) && Object.hasOwn(data, '_method')) {
      const { _method: requested, ...rest } = data as Record<string, unknown>;
      if (typeof requested !== 'string' || !/^(GET|POST|PUT|PATCH|DELETE)$/i.test(requested)) {
        throw new BridgeFailure(backendError(400));
      }
      method = requested.toUpperCase();
      body = method === 'GET' || method === 'DELETE' ? undefined : rest;
    }
    return services.backend.json(decision.path, { method, ...(body !== undefined ? { json: body } : {}), pluginId: plugin.id });
  },
} satisfies Readonly<Record<string, BridgeHandler>>;
