import Router from '@koa/router';
import { PluginHostError } from '@plughost/host-sdk/core';
import { openEventStream, type EventStreamResponse } from '../http/event-stream-response.js';
import type { DevPluginService, DevPluginsEvent } from '../services/dev-plugins/dev-plugin-service.js';

/** Writes one event; the data is the event without its type, exactly as the dev server wrote it. */
function send(stream: EventStreamResponse, event: DevPluginsEvent): void {
  const { type, ...data } = event;
  stream.send(type, data);
}

/**
 * Dev plugins (development mode, decisions section 10), mounted under `/api`:
 *
 * - `GET /plugins/dev/events`: server-sent events for the launcher page (token required, like
 *   every route but health and files): `building`, `rebuilt` (replace the plugin's frame with a new
 *   one), `build-failed` (show `output`; the running frame stays) relayed from each dev server,
 *   and `list-changed` (read `GET /api/plugins/` again). A page that connects first gets the last
 *   `build-failed` of each plugin whose last build failed. 404 `NOT_FOUND` when the backend was
 *   created without `devPlugins`.
 *
 * The dev plugins themselves are listed by `GET /plugins/`, and their files served by the file
 * route, from their dev servers.
 */
export function createDevPluginsRouter({ devPlugins }: { readonly devPlugins: DevPluginService }): Router {
  const router = new Router({ strict: true, sensitive: true });

  router.get('/plugins/dev/events', async (ctx) => {
    if (!devPlugins.enabled) {
      throw new PluginHostError(
        'NOT_FOUND',
        'Dev plugins are off: a launcher loads them only in development mode (the createLocalBackend option devPlugins; the demo launcher with NODE_ENV=development)',
      );
    }
    const stream = openEventStream(ctx);
    for (const failure of devPlugins.failures()) send(stream, failure);
    const unsubscribe = devPlugins.subscribe((event) => send(stream, event));
    await Promise.race([stream.done, devPlugins.whenClosed]);
    unsubscribe();
    if (!stream.closed) stream.end();
  });

  return router;
}
