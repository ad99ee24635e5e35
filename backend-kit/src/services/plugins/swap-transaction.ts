import { mkdir, rename } from '../filesystem/changes.js';
import { dirname, join } from 'node:path';
import { syncFolder } from '../atomic-file.js';
import { pathExists } from './plugin-folders.js';
import type { PluginRecord } from './plugin-records.js';
import type { PluginServiceEnv } from './service-env.js';
import type { TransactionStep } from './transaction-faults.js';
import { removeJournal, writeJournal, type TransactionJournal, type TransactionLocation } from './transaction-journal.js';

/** The folder a journal location names. */
export function locate(env: PluginServiceEnv, journal: TransactionJournal, location: TransactionLocation): string {
  const { paths } = env.context;
  return location.in === 'plugins' ? join(paths.plugins, location.name) : join(paths.temporary, journal.transaction, location.name);
}

function retiredFolder(env: PluginServiceEnv, journal: TransactionJournal): string {
  return join(env.context.paths.temporary, journal.transaction, 'retired');
}

/**
 * Puts the journal's incoming version into `plugins/<id>/` and `nextRecord` into the records,
 * crash-safely:
 *
 * 1. write the journal (from here a crash is undone at the next start);
 * 2. move older snapshots into the work folder (deleted only after the commit);
 * 3. move `plugins/<id>/` to the outgoing location (first rename);
 * 4. move the incoming version to `plugins/<id>/` (second rename);
 * 5. write the record; flush `plugins/`;
 * 6. remove the journal: the commit point.
 *
 * Each rename is atomic within the data directory's file system, so at every instant the
 * previous version is complete at one of two known places. A failure at any step is undone
 * before the error is rethrown, leaving the previous version installed; if the undo itself fails,
 * the journal stays and the next start finishes it.
 */
export async function runSwap(env: PluginServiceEnv, journal: TransactionJournal, nextRecord: PluginRecord): Promise<void> {
  const { paths } = env.context;
  const current = paths.pluginFolder(journal.pluginId);
  const at = (step: TransactionStep): Promise<void> => env.reachedStep({ step, pluginId: journal.pluginId, operation: journal.operation });

  await writeJournal(paths, journal);
  try {
    await at('journal-written');
    if (journal.retired.length > 0) {
      await mkdir(retiredFolder(env, journal), { recursive: true });
      for (const name of journal.retired) await rename(join(paths.plugins, name), join(retiredFolder(env, journal), name));
    }
    await at('snapshots-retired');
    if (journal.outgoing) await rename(current, locate(env, journal, journal.outgoing));
    await at('current-moved');
    await rename(locate(env, journal, journal.incoming), current);
    await at('incoming-moved');
    await env.records.set(journal.pluginId, nextRecord);
    await at('record-updated');
    await syncFolder(paths.plugins);
    await at('synced');
  } catch (error) {
    try {
      await undoSwap(env, journal);
      await removeJournal(paths, journal.pluginId);
    } catch (undoError) {
      env.context.logger.error('Could not undo a failed plugin install; it will be undone at the next start', {
        pluginId: journal.pluginId,
        error: undoError instanceof Error ? undoError.message : String(undoError),
      });
    }
    throw error;
  }
  await removeJournal(paths, journal.pluginId);
}

/**
 * Returns a transaction to the state before it, from whatever point it reached. Idempotent, so a
 * crash during an undo is finished by the next start. Where the incoming version still waits tells
 * whether the second rename happened (it consumes it); whether the current folder exists tells
 * whether the first one did.
 */
export async function undoSwap(env: PluginServiceEnv, journal: TransactionJournal): Promise<void> {
  const { paths } = env.context;
  const current = paths.pluginFolder(journal.pluginId);
  const incoming = locate(env, journal, journal.incoming);
  const outgoing = journal.outgoing ? locate(env, journal, journal.outgoing) : null;
  if (await pathExists(incoming)) {
    // The second rename did not happen; put the previous version back if the first one did.
    if (outgoing !== null && !(await pathExists(current)) && (await pathExists(outgoing))) await rename(outgoing, current);
  } else {
    // The new version is in place: move it back to where it waited, then the previous one back.
    if (await pathExists(current)) {
      await mkdir(dirname(incoming), { recursive: true });
      await rename(current, incoming);
    }
    if (outgoing !== null && (await pathExists(outgoing))) await rename(outgoing, current);
  }
  for (const name of journal.retired) {
    const away = join(retiredFolder(env, journal), name);
    const home = join(paths.plugins, name);
    if ((await pathExists(away)) && !(await pathExists(home))) await rename(away, home);
  }
  await env.records.set(journal.pluginId, journal.previousRecord);
  await syncFolder(paths.plugins);
}
