import { mkdir, rm } from '../filesystem/changes.js';
import { join } from 'node:path';
import type { PluginServiceEnv } from './service-env.js';
import { journalFolder, newTransactionName } from './transaction-journal.js';
import { pathExists } from './plugin-folders.js';

/**
 * Runs `task` with a fresh transaction work folder under `backend/tmp/` (same file system as
 * `plugins/`, so folders can be renamed between them), removed afterwards, unless a journal of the
 * plugin is still there: then a failed undo left it for recovery, which needs what it holds.
 */
export async function withWorkFolder<T>(env: PluginServiceEnv, pluginId: string, task: (transaction: string, folder: string) => Promise<T>): Promise<T> {
  const transaction = newTransactionName();
  const folder = join(env.context.paths.temporary, transaction);
  await mkdir(folder, { recursive: true });
  try {
    return await task(transaction, folder);
  } finally {
    if (!(await pathExists(join(journalFolder(env.context.paths), `${pluginId}.json`)))) {
      await rm(folder, { recursive: true, force: true, maxRetries: 3 }).catch((error: unknown) => {
        env.context.logger.warn('Could not remove a plugin work folder; it is removed at the next start', {
          folder,
          error: error instanceof Error ? error.message : String(error),
        });
      });
    }
  }
}
