import type { RouterParameterMiddleware } from '@koa/router';
import { PluginHostError, isValidPluginId } from '@plughost/host-sdk/core';

/**
 * `router.param('id', validatePluginIdParam)`: every `<id>` in a path must match the manifest id
 * pattern (decisions section 2), so no id can carry `..`, `/` or a snapshot suffix into a file path.
 */
export const validatePluginIdParam: RouterParameterMiddleware = async (id, _ctx, next) => {
  if (!isValidPluginId(id)) {
    throw new PluginHostError('INVALID_ARGUMENT', `"${id}" is not a plugin id (reverse-domain, lower case, e.g. com.example.my-plugin)`);
  }
  await next();
};

/** The validated `:id` parameter of the current route. */
export function pluginIdOf(params: Record<string, string | undefined>): string {
  const id = params.id;
  if (id === undefined || !isValidPluginId(id)) throw new PluginHostError('INVALID_ARGUMENT', 'Missing or invalid plugin id');
  return id;
}
