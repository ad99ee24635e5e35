import type { Caller } from '../../http/caller.js';
import type { DataPaths } from '../../config/data-paths.js';
import { consentSubjectOf, type FileAuthorizations } from './file-authorizations.js';
import { launcherDataForbidden, refuseSystemPlace } from './forbidden-places.js';
import { isPathWithin } from './path-within.js';
import { resolveRealPath } from './resolve-real-path.js';

/** What {@link requireLauncherPathConsent} checks against. */
export interface LauncherPathConsent {
  readonly paths: DataPaths;
  readonly authorizations: Pick<FileAuthorizations, 'requireAuthorization'>;
}

/**
 * Checks that `caller` may write at `path` (already resolved through links) for a download or a
 * modpack (decisions sections 2 and 4). Consent belongs to one plugin:
 *
 * - nobody, not even the launcher, writes into `/proc`, `/sys`, `/dev` (or a Windows device
 *   path), `plugins/` or the backend's records: 403 `FS_PATH_FORBIDDEN`;
 * - the launcher (no `X-Plugin-Id`) needs no consent anywhere else;
 * - a plugin needs none inside the launcher's download and instances folders; elsewhere in the
 *   data directory it never writes (403 `FS_PATH_FORBIDDEN`); anywhere else it needs a prefix
 *   the user agreed to for that same plugin (a dev plugin's consents are its own, apart from an
 *   installed plugin of its id): 403 `FS_AUTHORIZATION_REQUIRED` with the prefix to
 *   ask about. An instance that another plugin (or the launcher) created outside those folders
 *   widens nothing: its game directory is just another folder.
 *
 * @param consent - the data directory's layout and the backend's one consent store.
 * @param askAbout - the folder the consent prompt should name; default the path's parent.
 */
export async function requireLauncherPathConsent(consent: LauncherPathConsent, caller: Caller, path: string, askAbout?: string): Promise<void> {
  const { paths, authorizations } = consent;
  await refuseSystemPlace(path);
  for (const reserved of [paths.plugins, paths.backend]) {
    if (isPathWithin(await resolveRealPath(reserved), path)) throw launcherDataForbidden(path, "plugin folders or the launcher's records");
  }
  if (caller.pluginId === null) return;
  for (const folder of [paths.downloads, paths.instances]) if (isPathWithin(await resolveRealPath(folder), path)) return;
  if (isPathWithin(await resolveRealPath(paths.root), path)) throw launcherDataForbidden(path);
  await authorizations.requireAuthorization(consentSubjectOf(caller.pluginId, caller.dev === true), path, askAbout);
}
