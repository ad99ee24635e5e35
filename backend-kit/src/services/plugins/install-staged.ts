import { rename } from '../filesystem/changes.js';
import { join } from 'node:path';
import { PluginHostError, isValidPluginId, type PluginManifest } from '@plughost/host-sdk/core';
import { readInstalledManifest } from '../installed-manifest.js';
import { carryUserData } from './carry-user-data.js';
import { syncTree } from './file-copy.js';
import { isRealDirectory, listSnapshots, pathExists, snapshotName } from './plugin-folders.js';
import type { PluginRecord, SignerRecord } from './plugin-records.js';
import { settlePendingTransaction } from './recover-transactions.js';
import type { PluginServiceEnv } from './service-env.js';
import { assertSameSigner } from './signer-policy.js';
import { runSwap } from './swap-transaction.js';
import type { TransactionJournal } from './transaction-journal.js';
import { assertNotDowngrade } from './version-policy.js';
import { withWorkFolder } from './work-folder.js';

/** What the request asked for, besides the package. */
export interface InstallRequestOptions {
  /** Enable the plugin; an overwrite otherwise keeps the user's choice. */
  readonly enable: boolean;
  /** Let an older version replace the installed one (else 409 `DOWNGRADE_REFUSED`). */
  readonly allowDowngrade: boolean;
}

/** A new version, checked and waiting in a folder under `backend/tmp/`. */
export interface StagedVersion {
  /** The folder holding exactly the files to install; the install moves it away. */
  readonly directory: string;
  readonly manifest: PluginManifest;
  /** The verified signer; absent for an unsigned package or a development folder. */
  readonly signer: SignerRecord | undefined;
}

/** What an install did. */
export interface InstallOutcome {
  readonly manifest: PluginManifest;
  readonly record: PluginRecord;
  /** True when an installed version was replaced (and kept as the snapshot). */
  readonly replaced: boolean;
  readonly hasRollback: boolean;
}

function nextRecordOf(staged: StagedVersion, previous: PluginRecord | undefined, previousVersion: string | null, enable: boolean): PluginRecord {
  const now = new Date().toISOString();
  // An overwrite keeps the user's choice; `enable` can only turn it on (decisions section 4).
  const enabled = previousVersion !== null && previous ? previous.enabled || enable : enable;
  const disabledByUser = previousVersion !== null && previous ? previous.disabledByUser && !enable : false;
  return {
    enabled,
    disabledByUser,
    installedAt: now,
    ...(staged.signer ? { signer: staged.signer } : {}),
    ...(previousVersion !== null
      ? {
          snapshot: {
            version: previousVersion,
            installedAt: previous?.installedAt ?? now,
            ...(previous?.signer ? { signer: previous.signer } : {}),
          },
        }
      : {}),
  };
}

/**
 * Installs a staged version under the plugin's lock: a first install, or an overwrite that keeps
 * the installed version as the only snapshot (`plugins/<id>.bak-<version>/`), carries its
 * `settings.json` and `cache.json` over and keeps `enabled`. The signer must stay the same, and
 * the version must not go down unless `allowDowngrade`.
 *
 * @throws PluginHostError `SIGNER_CHANGED`, `DOWNGRADE_REFUSED`; file system errors after undoing
 *   what was done.
 */
export async function installStaged(env: PluginServiceEnv, staged: StagedVersion, request: InstallRequestOptions): Promise<InstallOutcome> {
  const id = staged.manifest.id;
  // The manifest was validated; this repeats the one rule that keeps the id a single safe folder name.
  if (!isValidPluginId(id)) throw new PluginHostError('INVALID_MANIFEST', `"${id}" is not a plugin id`);
  const { paths } = env.context;
  return env.context.pluginLock.run(id, () =>
    withWorkFolder(env, id, async (transaction, work) => {
      await settlePendingTransaction(env, id);
      const incoming = join(work, 'incoming');
      await rename(staged.directory, incoming);
      await env.reachedStep({ step: 'staged', pluginId: id, operation: 'install' });

      const current = paths.pluginFolder(id);
      const installed = await isRealDirectory(current);
      if (!installed && (await pathExists(current))) {
        throw new Error(`${current} exists but is not a folder; remove it by hand`);
      }
      const previous = env.records.get(id);
      const previousManifest = installed ? await readInstalledManifest(paths, id) : null;
      if (installed) {
        assertSameSigner(id, previous?.signer, staged.signer);
        // A folder without a readable manifest has no version to protect.
        if (previousManifest) assertNotDowngrade(id, previousManifest.version, staged.manifest.version, request.allowDowngrade);
        await carryUserData(current, incoming);
      }
      await env.reachedStep({ step: 'data-copied', pluginId: id, operation: 'install' });
      await syncTree(incoming);

      const snapshot = previousManifest ? snapshotName(id, previousManifest.version) : null;
      const journal: TransactionJournal = {
        version: 1,
        operation: 'install',
        pluginId: id,
        transaction,
        incoming: { in: 'transaction', name: 'incoming' },
        // A folder without a readable manifest has no version to name a snapshot after; it is replaced.
        outgoing: !installed ? null : snapshot ? { in: 'plugins', name: snapshot } : { in: 'transaction', name: 'replaced' },
        retired: await listSnapshots(paths, id),
        previousRecord: previous ?? null,
      };
      const record = nextRecordOf(staged, installed ? previous : undefined, previousManifest?.version ?? null, request.enable);
      await runSwap(env, journal, record);
      return { manifest: staged.manifest, record, replaced: installed, hasRollback: snapshot !== null };
    }),
  );
}
