import { jsonResponse } from '../components/responses.js';
import type { RouteDescription } from '../route-description.js';

/** `routes/launcher.ts` */
export const launcherRoutes: readonly RouteDescription[] = [
  {
    method: 'post',
    path: '/api/launcher/restart',
    operationId: 'restartLauncher',
    tag: 'launcher',
    summary: 'Apply plugin changes',
    description: 'The backend re-reads its plugin state (statuses are recomputed); the launcher page then reloads.',
    responses: { 202: jsonResponse('State re-read; the launcher page reloads next.', 'RestartAccepted') },
  },
];
