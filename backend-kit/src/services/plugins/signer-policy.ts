import { PluginHostError } from '@plughost/host-sdk/core';
import type { SignerRecord } from './plugin-records.js';

function describe(signer: SignerRecord): string {
  return signer.developerId !== undefined ? `developer ${signer.developerId} (key ${signer.keyId})` : `key ${signer.keyId}`;
}

/**
 * Refuses an overwrite install whose signer is not the installed version's (decisions section 4):
 * the same `developerId` when both certificates carry one (a developer may rotate keys), else the
 * same key id.
 *
 * - Nothing is compared when the installed version has no signer (an unsigned development install,
 *   or a folder the backend has no record of): it has no identity to keep.
 * - An unsigned version cannot replace a signed one. Directory installs are reachable by plugins
 *   holding `plugin:install`, so allowing it would let one plugin replace another's signed code
 *   without the owner check; uninstall first to switch to a development build.
 *
 * @throws PluginHostError `SIGNER_CHANGED` (409) naming both signers.
 */
export function assertSameSigner(pluginId: string, installed: SignerRecord | undefined, incoming: SignerRecord | undefined): void {
  if (installed === undefined) return;
  if (incoming === undefined) {
    throw new PluginHostError(
      'SIGNER_CHANGED',
      `${pluginId} is installed signed by ${describe(installed)}; an unsigned version cannot replace it (uninstall it first)`,
      { pluginId },
    );
  }
  const same =
    installed.developerId !== undefined && incoming.developerId !== undefined
      ? installed.developerId === incoming.developerId
      : installed.keyId === incoming.keyId;
  if (!same) {
    throw new PluginHostError(
      'SIGNER_CHANGED',
      `${pluginId} is installed signed by ${describe(installed)}, but this package is signed by ${describe(incoming)}; uninstall it first if the change of owner is expected`,
      { pluginId },
    );
  }
}
