import { jsonResponse } from '../components/responses.js';
import { schemaRef } from '../components/schema-ref.js';
import type { RouteDescription } from '../route-description.js';

const sourceList = {
  description: 'Every configured source, best first.',
  content: { 'application/json': { schema: { type: 'array', items: schemaRef('RegistrySourceStatus') } } },
};

const launcherOnly =
  ' The launcher page only: `callBackend` never forwards it, and a request carrying `X-Plugin-Id` (a bridge call) is answered 404 like an unknown route.';

/** `routes/launcher-settings.ts` (decisions section 8). */
export const launcherSettingsRoutes: readonly RouteDescription[] = [
  {
    method: 'get',
    path: '/api/launcher/settings',
    operationId: 'getLauncherSettings',
    tag: 'launcher',
    summary: "Read the launcher's settings",
    description: `\`launcher-settings.json\` of the data directory, with the launcher's pinned primary source in \`registryUrl\`.${launcherOnly}`,
    responses: { 200: jsonResponse('The settings.', 'LauncherSettings') },
  },
  {
    method: 'patch',
    path: '/api/launcher/settings',
    operationId: 'updateLauncherSettings',
    tag: 'launcher',
    summary: "Change the launcher's settings",
    description: `Changes any of \`telemetryEnabled\`, \`registryUrl\` and \`updateCheckHours\` (written atomically); \`installationId\` cannot be changed. New sources are discovered at once; a new interval reschedules the next update check.${launcherOnly}`,
    body: { json: schemaRef('LauncherSettingsPatch') },
    responses: { 200: jsonResponse('The settings after the change.', 'LauncherSettings') },
    errors: ['INVALID_ARGUMENT'],
  },
  {
    method: 'get',
    path: '/api/registries',
    operationId: 'listRegistrySources',
    tag: 'launcher',
    summary: 'Status of every store source',
    description: `Waits for the first discovery after start (at most 5 s). No \`active\` source means store features are disabled.${launcherOnly}`,
    responses: { 200: sourceList },
  },
  {
    method: 'post',
    path: '/api/registries/retry',
    operationId: 'retryRegistrySources',
    tag: 'launcher',
    summary: 'Retry every store source',
    description: `The user's Retry: forgets timeouts and the 5-minute unavailability, and sends \`GET /registry\` to every enabled source again.${launcherOnly}`,
    responses: { 200: sourceList },
  },
];
