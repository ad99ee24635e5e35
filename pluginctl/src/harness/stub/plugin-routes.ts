/**
 * The plugin lifecycle routes: the list from `plugins-dev/`, plugin files, enable and disable (in
 * memory, applied at a launcher restart), updates (none), and every route that would install,
 * replace or remove a plugin, which answer 400 `HARNESS_READONLY`.
 */
import { PluginHostError } from '@plughost/host-sdk/core';
import { openEventStream } from './event-stream.js';
import { readJsonObject, sendJson } from './http-io.js';
import { servePluginFile } from './plugin-files.js';
import { type StubContext, requirePlugin } from './stub-context.js';
import { type StubRoute, route } from './stub-router.js';

function readOnly(what: string): never {
  throw new PluginHostError(
    'HARNESS_READONLY',
    `The debug harness is read-only: it cannot ${what}. Its plugins are the folders of plugins-dev/ (add or edit one there); install packages in a launcher.`,
  );
}

/** The routes of `/api/plugins/...` that concern plugins themselves. */
export function pluginRoutes(context: StubContext): StubRoute[] {
  let checkedAt: string | null = null;
  return [
    route('GET', '/api/plugins/', async ({ response }) => {
      const plugins = await context.catalog.list();
      sendJson(
        response,
        200,
        plugins.map((plugin) => context.states.infoOf(plugin)),
      );
    }),
    route('GET', '/api/plugins/:id/files/*path', (request) => servePluginFile(request, context.catalog)),

    route('PUT', '/api/plugins/:id/state', async ({ incoming, params, response }) => {
      const enabled = (await readJsonObject(incoming)).enabled;
      if (typeof enabled !== 'boolean') throw new PluginHostError('INVALID_ARGUMENT', 'enabled must be a boolean', { field: 'enabled' });
      const plugin = await requirePlugin(context, params.id ?? '');
      sendJson(response, 200, context.states.choose(plugin, enabled));
    }),
    route('POST', '/api/launcher/restart', ({ response }) => {
      context.states.restart();
      context.log('Launcher restart: plugin states re-read');
      sendJson(response, 202, { restarting: true });
    }),

    route('GET', '/api/plugins/updates', ({ response }) => sendJson(response, 200, { checkedAt, updates: [] })),
    route('POST', '/api/plugins/updates/check', ({ response }) => {
      checkedAt = new Date().toISOString();
      sendJson(response, 200, { checkedAt, updates: [] });
    }),

    // A launcher in development mode relays its dev servers' rebuild notices here. The harness page
    // gets them from the harness server itself (`/__pluginctl/events`), so the stub's stream stays
    // quiet: open, with keep-alives, as a launcher's with no dev server building.
    route('GET', '/api/plugins/dev/events', async ({ response }) => {
      await openEventStream(response).done;
    }),

    route('POST', '/api/plugins/upload', () => readOnly('install an uploaded package')),
    route('POST', '/api/plugins/install', () => readOnly('install a plugin folder')),
    route('POST', '/api/plugins/inspect', () => readOnly('inspect a package')),
    route('POST', '/api/plugins/store-inspect', () => readOnly('inspect a store package')),
    route('POST', '/api/plugins/store-install', () => readOnly('install from a store')),
    route('POST', '/api/plugins/:id/update', () => readOnly('update a plugin')),
    route('POST', '/api/plugins/:id/rollback', () => readOnly('roll a plugin back')),
    route('DELETE', '/api/plugins/:id', () => readOnly('uninstall a plugin')),
  ];
}
