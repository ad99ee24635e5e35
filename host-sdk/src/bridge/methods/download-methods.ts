import type { BridgeHandler } from '../lazy-handlers.js';
import { objectArgument, stringArgument } from './arguments.js';
import { withConsent } from './with-consent.js';

/** `download.*` and `modpack.install`: the backend's download manager, as the calling plugin. */
export const handlers = {
  'download.addTask': (context, args) => {
    const task = objectArgument('download.addTask', args, 0, 'task');
    return withConsent(context, 'write', () => context.services.backend.json('/api/plugins/download/tasks', { json: task, pluginId: context.plugin.id }));
  },
  'download.progress': ({ plugin, services }, args) =>
    services.backend.json(`/api/plugins/download/tasks/${encodeURIComponent(stringArgument('download.progress', args, 0, 'taskId'))}`, {
      pluginId: plugin.id,
    }),
  'download.list': ({ plugin, services }) => services.backend.json('/api/plugins/download/tasks', { pluginId: plugin.id }),
  'download.cancel': async ({ plugin, services }, args) => {
    await services.backend.json(`/api/plugins/download/tasks/${encodeURIComponent(stringArgument('download.cancel', args, 0, 'taskId'))}`, {
      method: 'DELETE',
      pluginId: plugin.id,
    });
    return null;
  },
  'download.registerInstall': ({ plugin, services }, args) => {
    const task = objectArgument('download.registerInstall', args, 0, 'task');
    const field = (name: string): string => stringArgument('download.registerInstall', [task[name]], 0, name);
    services.ui.registerInstall?.({
      pluginId: plugin.id,
      instanceId: field('instanceId'),
      name: field('name'),
      gameVersion: field('gameVersion'),
      loader: field('loader'),
      loaderVersion: field('loaderVersion'),
    });
    return null;
  },
  'modpack.install': (context, args) => {
    const options = objectArgument('modpack.install', args, 0, 'options');
    // The game directory and a local pack follow the download consent rule: ask, then retry.
    return withConsent(context, 'write', () => context.services.backend.json('/api/modpack/install-direct', { json: options, pluginId: context.plugin.id }));
  },
} satisfies Readonly<Record<string, BridgeHandler>>;
