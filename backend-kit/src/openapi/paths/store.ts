import { STORE_INSTALL_ERRORS } from '../components/install-errors.js';
import { jsonResponse } from '../components/responses.js';
import { schemaRef } from '../components/schema-ref.js';
import type { RouteDescription } from '../route-description.js';

/** `routes/store.ts`: installing from the primary store (decisions sections 4 and 6). */
export const storeRoutes: readonly RouteDescription[] = [
  {
    method: 'post',
    path: '/api/plugins/store-install',
    operationId: 'installPluginFromStore',
    tag: 'store',
    summary: 'Install a published version from the store',
    description:
      "Asks the active store source (the next usable one when it times out, answers 5xx or cannot be reached) for the version's Download info, downloads `url` and, when its host is listed in that source's `mirrors`, `mirrorUrl` at once, keeps the first copy with the declared size and SHA-256, and installs it. The signature is verified when the package has one (unsigned legacy versions are accepted; a developer key on the store's revocation list is refused); an overwrite needs the installed version's signer and, unless `allowDowngrade` is true, a version that is not lower, and permissions it adds must be in `acceptPermissions` (409 `CONSENT_REQUIRED` otherwise). The source and slug are recorded with the plugin, so update checks include it. Nothing is kept when any check fails.",
    body: { json: schemaRef('StoreInstallRequest') },
    responses: { 201: jsonResponse('Installed.', 'PluginInfo') },
    errors: STORE_INSTALL_ERRORS,
  },
];
