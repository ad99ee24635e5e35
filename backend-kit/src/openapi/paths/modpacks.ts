import { parameterRef } from '../components/parameters.js';
import { jsonResponse } from '../components/responses.js';
import { schemaRef } from '../components/schema-ref.js';
import type { RouteDescription } from '../route-description.js';

/** `routes/modpacks.ts`: `modpack.install`, run as a `modpack` session of the download manager. */
export const modpackRoutes: readonly RouteDescription[] = [
  {
    method: 'post',
    path: '/api/modpack/install-direct',
    operationId: 'installModpack',
    tag: 'modpacks',
    summary: 'Install a modpack into a new instance (modpack.install)',
    description:
      'Validates the request, checks `gameDir` (and a local `path`) like a download target, creates the instance and answers its id at once. ' +
      'The install then runs as a session of kind `modpack` in the download manager (progress on `GET /api/plugins/download/events`; pause, resume and cancel through the task routes): ' +
      "it resolves the source (a local `.mrpack` or CurseForge `.zip`; Modrinth, CurseForge or FTB online), downloads every file into the game directory verifying its digests, then copies the pack's override folders. " +
      'Problems found after the answer (an unreachable API, a malformed pack, a file with the wrong digest) fail the session, not this request. ' +
      'Nobody may install into (or read a pack from) `/proc`, `/sys`, `/dev`, `plugins/` or `backend/`: 403 `FS_PATH_FORBIDDEN`. A plugin needs no consent inside `<data>/downloads` and `<data>/instances`, never reaches the rest of the data directory (403 `FS_PATH_FORBIDDEN`), and elsewhere needs a folder the user agreed to for that same plugin (403 `FS_AUTHORIZATION_REQUIRED` with `prefix`): an instance another plugin installed widens nothing. ' +
      'A plugin that already has its most download tasks waiting gets 429 `DOWNLOAD_QUEUE_FULL` before any instance is created. ' +
      '`MODPACK_FILE_NOT_FOUND` is checked after consent, so a plugin cannot probe for files.',
    parameters: [parameterRef('XPluginId')],
    body: { json: schemaRef('ModpackInstallRequest') },
    responses: { 202: jsonResponse('The instance was created; the install runs in the background.', 'ModpackInstallResult') },
    errors: [
      'INVALID_ARGUMENT',
      'PLUGIN_NOT_FOUND',
      'FS_AUTHORIZATION_REQUIRED',
      'FS_PATH_FORBIDDEN',
      'DOWNLOAD_QUEUE_FULL',
      'MODPACK_NAME_REQUIRED',
      'MODPACK_GAME_DIR_REQUIRED',
      'MODPACK_SOURCE_REQUIRED',
      'MODPACK_SOURCE_INVALID',
      'MODPACK_FILE_NOT_FOUND',
    ],
  },
];
