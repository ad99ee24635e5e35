import { headerRef } from '../components/parameters.js';
import type { RouteDescription } from '../route-description.js';

/** `routes/dev-plugins.ts`: the rebuild notices of dev plugins (development mode). */
export const devPluginRoutes: readonly RouteDescription[] = [
  {
    method: 'get',
    path: '/api/plugins/dev/events',
    operationId: 'devPluginEvents',
    tag: 'dev-plugins',
    summary: 'Rebuild notices of dev plugins as server-sent events',
    description:
      'For the launcher page in development mode (`createLocalBackend` option `devPlugins`): a `text/event-stream` read with `fetch` and the bearer token (`followDevPlugins` of `@plughost/host-sdk` does it, with reconnection). ' +
      "Relayed from each dev server's `/__pluginctl/events`, with the same `data` as there: `building` `{pluginId, at}`; `rebuilt` `{pluginId, at, durationMs}` (replace that plugin's frame with a new one); `build-failed` `{pluginId, at, output}` (show the build output; the running frame stays). " +
      'Plus `list-changed` `{pluginIds}` when the dev plugins changed (one appeared or went, became loadable or not, or its manifest changed): read `GET /api/plugins/` again. ' +
      'A client that connects first gets the last `build-failed` of each plugin whose last build failed. A `: keep-alive` comment every 15 s keeps idle connections open. 404 `NOT_FOUND` when dev plugins are off (release mode).',
    responses: {
      200: {
        description: 'The event stream; it ends when the client disconnects or the backend closes.',
        headers: { 'Cache-Control': headerRef('CacheControl') },
        content: {
          'text/event-stream': {
            schema: {
              type: 'string',
              description: 'Events `rebuilt`, `build-failed`, `building` and `list-changed` with JSON `data`, and keep-alive comments.',
            },
            example: 'event: rebuilt\ndata: {"pluginId":"com.example.hello","at":"2026-11-30T10:00:00.000Z","durationMs":812}\n\n',
          },
        },
      },
    },
    errors: ['NOT_FOUND'],
  },
];
