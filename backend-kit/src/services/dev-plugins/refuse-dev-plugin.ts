import { PluginHostError } from '@plughost/host-sdk/core';
import type { DevPluginService } from './dev-plugin-service.js';

/**
 * Refuses a lifecycle action (disable, uninstall, roll back, update) on a dev plugin: it is not
 * installed but served by a running `pluginctl dev`, and an installed plugin of the same id stays
 * untouched on disk while the dev one takes its place.
 *
 * @throws PluginHostError `INVALID_ARGUMENT` (details `pluginId`, `dev: true`) naming what to do instead.
 */
export function refuseDevPlugin(
  devPlugins: Pick<DevPluginService, 'has'>,
  id: string,
  action: 'disabled' | 'enabled' | 'uninstalled' | 'rolled back' | 'updated',
): void {
  if (!devPlugins.has(id)) return;
  throw new PluginHostError(
    'INVALID_ARGUMENT',
    `${id} is a dev plugin served by a running \`pluginctl dev\`, so it cannot be ${action} here; stop its dev server first (an installed copy of ${id}, if any, is then listed again)`,
    { pluginId: id, dev: true },
  );
}
