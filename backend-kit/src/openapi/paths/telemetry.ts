import { jsonResponse } from '../components/responses.js';
import { schemaRef } from '../components/schema-ref.js';
import type { RouteDescription } from '../route-description.js';

/** `routes/telemetry.ts` */
export const telemetryRoutes: readonly RouteDescription[] = [
  {
    method: 'post',
    path: '/api/telemetry/plugin-error',
    operationId: 'reportPluginError',
    tag: 'telemetry',
    summary: 'Report a plugin error',
    description:
      'Answers 202 at once. The backend adds `launcherVersion` and forwards the report to `<store>/telemetry/plugin-error` afterwards, only when the user enabled telemetry and exactly that id@version is installed; otherwise the report is dropped with the same answer. A slow or unreachable store never affects the caller.',
    body: { json: schemaRef('PluginErrorReport') },
    responses: { 202: jsonResponse('Accepted (whether or not it will be forwarded).', 'TelemetryAccepted') },
  },
];
