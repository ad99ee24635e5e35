import { readdir } from 'node:fs/promises';
import { rm } from '../filesystem/changes.js';
import { join } from 'node:path';
import { readJsonFile } from '../atomic-file.js';
import type { PluginServiceEnv } from './service-env.js';
import { undoSwap } from './swap-transaction.js';
import { TRANSACTION_PREFIX, journalFolder, parseJournal, readJournals, removeJournal, type TransactionJournal } from './transaction-journal.js';

/** Prefixes of what the plugin service and store installs leave in `backend/tmp/` only when the process dies. */
export const WORK_PREFIXES = [TRANSACTION_PREFIX, 'plugin-upload-', 'plugin-stage-', 'store-download-'] as const;

async function finish(env: PluginServiceEnv, journal: TransactionJournal): Promise<void> {
  env.context.logger.warn('Undoing a plugin install, overwrite or rollback that did not complete', {
    pluginId: journal.pluginId,
    operation: journal.operation,
  });
  await undoSwap(env, journal);
  await removeJournal(env.context.paths, journal.pluginId);
  await rm(join(env.context.paths.temporary, journal.transaction), { recursive: true, force: true, maxRetries: 3 });
}

/**
 * Undoes the transaction of `pluginId` that a failed undo left behind, if any. Called under the
 * plugin's lock before each change, so a new transaction never starts on top of an unfinished one.
 */
export async function settlePendingTransaction(env: PluginServiceEnv, pluginId: string): Promise<void> {
  const file = join(journalFolder(env.context.paths), `${pluginId}.json`);
  const content = await readJsonFile(file, null);
  if (content === null) return;
  const journal = parseJournal(content, pluginId);
  if (journal === null) throw new Error(`The transaction journal ${file} is unreadable; inspect it by hand`);
  await finish(env, journal);
}

/**
 * Runs at service start, before anything else touches `plugins/`: undoes every transaction whose
 * journal is still there (the process died between its first write and its commit), so the
 * previous version of each plugin is installed again. Then removes what dead processes left in
 * `backend/tmp/` (work folders, uploads, development copies), unless an unreadable journal might
 * still need its work folder.
 */
export async function recoverTransactions(env: PluginServiceEnv): Promise<void> {
  const { journals, unreadable } = await readJournals(env.context.paths);
  for (const journal of journals) await finish(env, journal);
  if (unreadable.length > 0) {
    env.context.logger.error('Leaving unreadable plugin transaction journals and their work folders for inspection', {
      journals: unreadable,
    });
    return;
  }
  const leftovers = await readdir(env.context.paths.temporary).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  for (const name of leftovers) {
    if (WORK_PREFIXES.some((prefix) => name.startsWith(prefix))) {
      await rm(join(env.context.paths.temporary, name), { recursive: true, force: true, maxRetries: 3 });
    }
  }
}
