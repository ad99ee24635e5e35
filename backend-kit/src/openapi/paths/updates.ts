import { STORE_INSTALL_ERRORS } from '../components/install-errors.js';
import { jsonResponse } from '../components/responses.js';
import { schemaRef } from '../components/schema-ref.js';
import type { RouteDescription } from '../route-description.js';

/** `routes/updates.ts` (decisions section 8). */
export const updateRoutes: readonly RouteDescription[] = [
  {
    method: 'get',
    path: '/api/plugins/updates',
    operationId: 'listPluginUpdates',
    tag: 'plugins',
    summary: 'Updates available for store-installed plugins',
    description:
      'The offers of the last check (after start and every `updateCheckHours`), for the versions installed now: only plugins installed from a store, only versions newer than the installed one whose rollout bucket for this installation is below `rolloutPercent`. The launcher offers an upgrade only for what this lists.',
    responses: { 200: jsonResponse('The offers.', 'UpdatesSnapshot') },
  },
  {
    method: 'post',
    path: '/api/plugins/updates/check',
    operationId: 'checkPluginUpdates',
    tag: 'plugins',
    summary: 'Check for updates now',
    description:
      'Discovers the sources again, refreshes the revocation list and calls `check-updates` on the active source (the next usable one when it fails). The plugins it offers nothing for are asked of their recorded source (`PluginInfo.store.source`) too, once per source, when that is another configured, enabled and usable source: a plugin installed from a backup that the active source does not list is still offered its updates. A recorded source that fails is skipped (logged).',
    responses: { 200: jsonResponse('The offers after the check.', 'UpdatesSnapshot') },
    errors: ['STORE_NOT_CONFIGURED', 'STORE_UNAVAILABLE'],
  },
  {
    method: 'post',
    path: '/api/plugins/{id}/update',
    operationId: 'updatePlugin',
    tag: 'plugins',
    summary: 'Update a store-installed plugin',
    description:
      "Downloads `version` from the source that offered it at the last check (an offer only the plugin's recorded source made: from that source alone, `STORE_UNAVAILABLE` when it is no longer usable; otherwise the active source with fallback, then the recorded source when the active one has no such version) (url and mirror race, SHA-256 and size), verifies the signature (revocation list, same signer), and when the new version asks for permissions not in `acceptPermissions` installs nothing and answers 409 `CONSENT_REQUIRED` with `added`. Otherwise the installed version becomes the snapshot and the new one is installed; it runs after the next restart (`status` is unchanged until then) and `POST /api/plugins/{id}/rollback` restores the old one. A dev plugin (development mode) is refused with 400 `INVALID_ARGUMENT`, and never appears in the list of updates.",
    body: { json: schemaRef('UpdateRequest') },
    responses: { 200: jsonResponse('Updated; restart to apply.', 'PluginInfo') },
    errors: STORE_INSTALL_ERRORS,
  },
];
