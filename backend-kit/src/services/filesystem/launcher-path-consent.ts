import { PluginHostError } from '@plughost/host-sdk/core';
import type { Caller } from '../../http/caller.js';
import type { BackendContext } from '../../local-backend/context.js';
import { fileAuthorizationsFor } from './file-authorizations.js';
import { isPathWithin } from './path-within.js';
import { resolveRealPath } from './resolve-real-path.js';

/**
 * Checks that `caller` may write at `path` (already resolved through links) for a download or a
 * modpack (decisions section 4):
 *
 * - nobody, not even the launcher, writes into `plugins/` or the backend's records;
 * - the launcher needs no consent;
 * - a plugin needs none inside the launcher's download folder, its instances folder or the game
 *   directory of a known instance, and the user's per-path consent (as `filesystem:write`)
 *   anywhere else: 403 `FS_AUTHORIZATION_REQUIRED` with the prefix to ask about.
 *
 * @param askAbout - the folder the consent prompt should name; default the path's parent.
 */
export async function requireLauncherPathConsent(context: BackendContext, caller: Caller, path: string, askAbout?: string): Promise<void> {
  const { paths } = context;
  for (const reserved of [paths.plugins, paths.backend]) {
    if (isPathWithin(await resolveRealPath(reserved), path)) {
      throw new PluginHostError('INVALID_ARGUMENT', "Plugin folders and the launcher's records cannot be download or install targets");
    }
  }
  if (caller.pluginId === null) return;
  const ownFolders = [paths.downloads, paths.instances, ...(await context.instances.list()).map((instance) => instance.gameDir)];
  for (const folder of ownFolders) if (isPathWithin(await resolveRealPath(folder), path)) return;
  await fileAuthorizationsFor(context).requireAuthorization(caller.pluginId, path, askAbout);
}
