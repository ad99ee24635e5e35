import { STORE_INSPECT_ERRORS, STORE_INSTALL_ERRORS } from '../components/install-errors.js';
import { jsonResponse } from '../components/responses.js';
import { schemaRef } from '../components/schema-ref.js';
import type { RouteDescription } from '../route-description.js';

/** `routes/store.ts`: the two steps of a store install (decisions sections 4, 6 and 12). */
export const storeRoutes: readonly RouteDescription[] = [
  {
    method: 'post',
    path: '/api/plugins/store-inspect',
    operationId: 'inspectStorePackage',
    tag: 'store',
    summary: 'Download and inspect a published version for the install dialog',
    description:
      "Step one of a store install. Reads the listing (`GET /plugins/<slug>`) and the Download info of the version from the same store source (the active one, or the next usable one after a time-out or 5xx), downloads it (url and listed mirror race, size and SHA-256), verifies its signature (revocation list included) and checks that it is the listed plugin and version: the primary's id for the slug is expected also from a backup source (400 `STORE_LISTING_MISMATCH`). An unsigned package is refused unless the primary answered (400 `SIGNATURE_INVALID`). The package is kept by digest in `backend/store-downloads/` for 15 minutes (1 GiB in all, oldest dropped first, emptied at start). Installs nothing; answers what the package itself says, with the permissions the listing did not show.",
    body: { json: schemaRef('StoreInspectRequest') },
    responses: { 200: jsonResponse('What the package says.', 'StorePackageInspection') },
    errors: STORE_INSPECT_ERRORS,
  },
  {
    method: 'post',
    path: '/api/plugins/store-install',
    operationId: 'installPluginFromStore',
    tag: 'store',
    summary: 'Install a published version from the store (step two)',
    description:
      "Step two of a store install: with `sha256`, installs exactly the package `store-inspect` kept (or downloads it again and refuses other bytes with 409 `STORE_PACKAGE_CHANGED`); without it, downloads afresh with the same checks. The package is opened and verified once. It must be the listed plugin and version (400 `STORE_LISTING_MISMATCH`); every permission it asks for (on a first install) or adds (over an installed plugin) must be in `acceptPermissions`, and an unsigned package (primary store only) needs `allowUnsigned: true`, else 409 `CONSENT_REQUIRED` with `added` and `unsigned`. `acceptPermissions` and `allowUnsigned` are honoured only from the launcher page: a request the host sent for a plugin (`X-Plugin-Id`) carrying them is 403 `CONSENT_NOT_FROM_PLUGIN`. Download details: asks the active store source (the next usable one when it times out, answers 5xx or cannot be reached) for the version's Download info, downloads `url` and, when its host is listed in that source's `mirrors`, `mirrorUrl` at once, keeps the first copy with the declared size and SHA-256, and installs it. The signature is verified when the package has one (unsigned legacy versions are accepted; a developer key on the store's revocation list is refused); an overwrite needs the installed version's signer and, unless `allowDowngrade` is true, a version that is not lower, and permissions it adds must be in `acceptPermissions` (409 `CONSENT_REQUIRED` otherwise). The source and slug are recorded with the plugin, so update checks include it. Nothing is kept when any check fails.",
    body: { json: schemaRef('StoreInstallRequest') },
    responses: { 201: jsonResponse('Installed.', 'PluginInfo') },
    errors: STORE_INSTALL_ERRORS,
  },
];
