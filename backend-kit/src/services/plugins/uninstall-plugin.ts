import { mkdir, rename } from '../filesystem/changes.js';
import { join } from 'node:path';
import { PluginHostError } from '@plughost/host-sdk/core';
import { syncFolder } from '../atomic-file.js';
import { isRealDirectory, listSnapshots } from './plugin-folders.js';
import { settlePendingTransaction } from './recover-transactions.js';
import type { PluginServiceEnv } from './service-env.js';
import { withWorkFolder } from './work-folder.js';

/**
 * Removes `plugins/<id>/`, its snapshots and its record, under the plugin's lock. The folders are
 * first renamed into a work folder, so the plugin disappears at once and a crash can only leave
 * garbage in `backend/tmp/` (removed at the next start), never half a plugin. Deleting never
 * follows a symbolic link: `rm` removes links, not what they point to, and `plugins/<id>` itself
 * must be a real folder.
 *
 * @throws PluginHostError `PLUGIN_NOT_FOUND`.
 */
export async function uninstallPlugin(env: PluginServiceEnv, id: string): Promise<void> {
  const { paths } = env.context;
  await env.context.pluginLock.run(id, () =>
    withWorkFolder(env, id, async (_transaction, work) => {
      await settlePendingTransaction(env, id);
      const current = paths.pluginFolder(id);
      if (!(await isRealDirectory(current))) throw new PluginHostError('PLUGIN_NOT_FOUND', `No plugin ${id} is installed`, { pluginId: id });
      await rename(current, join(work, 'removed'));
      const snapshots = await listSnapshots(paths, id);
      if (snapshots.length > 0) await mkdir(join(work, 'retired'));
      for (const name of snapshots) await rename(join(paths.plugins, name), join(work, 'retired', name));
      await env.records.set(id, null);
      await syncFolder(paths.plugins);
    }),
  );
}
