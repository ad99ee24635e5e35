import { PluginHostError, compareVersions } from '@plughost/host-sdk/core';

/**
 * Refuses an overwrite install that would put an older version in place of the installed one
 * (decisions section 4): an older version may carry a hole the newer one fixed, so it never
 * replaces it silently. The same version passes (a repair), and so does any version when the
 * request says `allowDowngrade`; rollback stays the normal way back.
 *
 * @throws PluginHostError `DOWNGRADE_REFUSED` (409) naming both versions.
 */
export function assertNotDowngrade(pluginId: string, installedVersion: string, incomingVersion: string, allowDowngrade: boolean): void {
  if (allowDowngrade || compareVersions(incomingVersion, installedVersion) >= 0) return;
  throw new PluginHostError(
    'DOWNGRADE_REFUSED',
    `${pluginId} ${installedVersion} is installed; this package is the older version ${incomingVersion}. Use rollback to return to the previous version, or send allowDowngrade: true to install the older one anyway`,
    { pluginId },
  );
}
