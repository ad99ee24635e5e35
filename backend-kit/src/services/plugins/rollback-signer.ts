import { PluginHostError } from '@plughost/host-sdk/core';
import { signatureKeyIdsOf } from '../revocation/folder-signature.js';
import type { SignerRecord } from './plugin-records.js';

/** The snapshot a rollback would restore, as {@link assertRollbackSignerNotRevoked} checks it. */
export interface RollbackCandidate {
  readonly pluginId: string;
  /** The snapshot's version (from its manifest). */
  readonly version: string;
  /** Its folder, `plugins/<id>.bak-<version>/`. */
  readonly folder: string;
  /** Who signed it, from the backend's record of the snapshot; absent when there is no record. */
  readonly recordedSigner: SignerRecord | undefined;
}

/**
 * True when the recorded signer of the kept snapshot is on the revocation list: PluginInfo's
 * `rollbackSignerRevoked`, computed from the record alone so listing plugins reads no more files.
 */
export function isRecordedSignerRevoked(signer: SignerRecord | undefined, revokedKeyIds: ReadonlySet<string>): boolean {
  return signer !== undefined && revokedKeyIds.has(signer.keyId);
}

/**
 * Refuses a rollback to a version signed by a developer key the store revoked (decisions section
 * 12): restoring it would install, through the back door, exactly the build an install or update
 * is refused. Both the recorded signer and the key ids the snapshot's own signature files name are
 * checked, so a snapshot the records do not know of (an older data folder) is covered too. There
 * is no override; nothing has been changed when it throws.
 *
 * @throws PluginHostError `SIGNATURE_INVALID`, its message naming the revoked key id (details `pluginId`, `check: 'revoked'`, `keyId`).
 */
export async function assertRollbackSignerNotRevoked(candidate: RollbackCandidate, revokedKeyIds: ReadonlySet<string>): Promise<void> {
  if (revokedKeyIds.size === 0) return;
  const keyIds = [...(candidate.recordedSigner ? [candidate.recordedSigner.keyId] : []), ...(await signatureKeyIdsOf(candidate.folder))];
  const revoked = keyIds.find((keyId) => revokedKeyIds.has(keyId));
  if (revoked === undefined) return;
  const { pluginId, version } = candidate;
  throw new PluginHostError(
    'SIGNATURE_INVALID',
    `The developer key ${revoked} that signed ${pluginId} ${version}, the version kept for rollback, has been revoked by the store; rolling back to it is refused, and the installed version stays`,
    { pluginId, check: 'revoked', keyId: revoked },
  );
}
