import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { PluginHostError, parseManifest, type PluginManifest } from '@plughost/host-sdk/core';
import { carryUserData } from './carry-user-data.js';
import { isRealDirectory, listSnapshots, snapshotName } from './plugin-folders.js';
import type { PluginRecord } from './plugin-records.js';
import { settlePendingTransaction } from './recover-transactions.js';
import { assertRollbackSignerNotRevoked } from './rollback-signer.js';
import type { PluginServiceEnv } from './service-env.js';
import { runSwap } from './swap-transaction.js';
import type { TransactionJournal } from './transaction-journal.js';
import { withWorkFolder } from './work-folder.js';

/** What a rollback did. */
export interface RollbackOutcome {
  readonly manifest: PluginManifest;
  readonly record: PluginRecord;
}

/**
 * The snapshot to restore: the one the record names (the last overwrite made it), else the most
 * recently changed one (snapshots the backend has no record of, from an older data folder).
 */
async function chooseSnapshot(env: PluginServiceEnv, id: string, record: PluginRecord | undefined): Promise<string | null> {
  const names = await listSnapshots(env.context.paths, id);
  const recorded = record?.snapshot ? snapshotName(id, record.snapshot.version) : null;
  if (recorded !== null && names.includes(recorded)) return recorded;
  let newest: { name: string; time: number } | null = null;
  for (const name of names) {
    const time = (await stat(join(env.context.paths.plugins, name))).mtimeMs;
    if (newest === null || time > newest.time) newest = { name, time };
  }
  return newest?.name ?? null;
}

async function readSnapshotManifest(folder: string, id: string, name: string): Promise<PluginManifest> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(join(folder, 'manifest.json'));
  } catch {
    throw new PluginHostError('ROLLBACK_NOT_AVAILABLE', `The snapshot ${name} has no manifest.json, so it cannot be restored`, { pluginId: id });
  }
  const result = parseManifest(bytes);
  // A snapshot folder is named after its plugin, but only its manifest says what it holds.
  if (!result.ok || result.manifest.id !== id) {
    throw new PluginHostError('ROLLBACK_NOT_AVAILABLE', `The snapshot ${name} does not hold a valid version of ${id}`, { pluginId: id });
  }
  return result.manifest;
}

function restoredRecord(current: PluginRecord | undefined, snapshotMatchesRecord: boolean): PluginRecord {
  const snapshot = snapshotMatchesRecord ? current?.snapshot : undefined;
  // Without a record of the snapshot, keep the current signer: that version passed the signer
  // check against the snapshot's when it replaced it.
  const signer = snapshot ? snapshot.signer : current?.signer;
  return {
    enabled: current?.enabled ?? false,
    disabledByUser: current?.disabledByUser ?? false,
    installedAt: snapshot?.installedAt ?? new Date().toISOString(),
    ...(signer ? { signer } : {}),
  };
}

/**
 * Restores the snapshot made by the last overwrite install, under the plugin's lock: carries the
 * current `settings.json` and `cache.json` into it, swaps it into `plugins/<id>/` with the same
 * crash-safe steps as an install, and deletes the replaced version, so no snapshot is left
 * (decisions section 4). `enabled` is kept. A snapshot signed by a developer key on the store's
 * revocation list is refused before anything changes (decisions section 12).
 *
 * @throws PluginHostError `PLUGIN_NOT_FOUND`, `ROLLBACK_NOT_AVAILABLE` when there is no usable
 *   snapshot, `SIGNATURE_INVALID` naming the revoked key of the snapshot's signer.
 */
export async function rollbackPlugin(env: PluginServiceEnv, id: string): Promise<RollbackOutcome> {
  const { paths } = env.context;
  return env.context.pluginLock.run(id, () =>
    withWorkFolder(env, id, async (transaction) => {
      await settlePendingTransaction(env, id);
      const current = paths.pluginFolder(id);
      if (!(await isRealDirectory(current))) throw new PluginHostError('PLUGIN_NOT_FOUND', `No plugin ${id} is installed`, { pluginId: id });
      const record = env.records.get(id);
      const chosen = await chooseSnapshot(env, id, record);
      if (chosen === null) {
        throw new PluginHostError('ROLLBACK_NOT_AVAILABLE', `${id} has no snapshot to roll back to`, { pluginId: id });
      }
      const snapshotFolder = join(paths.plugins, chosen);
      const manifest = await readSnapshotManifest(snapshotFolder, id, chosen);
      const matches = record?.snapshot !== undefined && snapshotName(id, record.snapshot.version) === chosen;
      // Before anything is touched: a refused rollback leaves both versions as they were.
      await assertRollbackSignerNotRevoked(
        { pluginId: id, version: manifest.version, folder: snapshotFolder, recordedSigner: matches ? record?.snapshot?.signer : undefined },
        env.revocation.revokedKeyIds(),
      );
      await env.reachedStep({ step: 'staged', pluginId: id, operation: 'rollback' });
      await carryUserData(current, snapshotFolder);
      await env.reachedStep({ step: 'data-copied', pluginId: id, operation: 'rollback' });

      const journal: TransactionJournal = {
        version: 1,
        operation: 'rollback',
        pluginId: id,
        transaction,
        incoming: { in: 'plugins', name: chosen },
        outgoing: { in: 'transaction', name: 'replaced' },
        retired: (await listSnapshots(paths, id)).filter((name) => name !== chosen),
        previousRecord: record ?? null,
      };
      const next = restoredRecord(record, matches);
      await runSwap(env, journal, next);
      return { manifest, record: next };
    }),
  );
}
