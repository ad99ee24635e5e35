import { headerRef } from '../components/parameters.js';
import { jsonResponse } from '../components/responses.js';
import { schemaRef } from '../components/schema-ref.js';
import type { RouteDescription } from '../route-description.js';

const systemInfo = {
  tag: 'system',
  responses: {
    200: jsonResponse('System information; memory figures are read at each call.', 'SystemInfo', { headers: { 'Cache-Control': headerRef('CacheControl') } }),
  },
} as const;

/** `routes/system.ts` */
export const systemRoutes: readonly RouteDescription[] = [
  {
    ...systemInfo,
    method: 'get',
    path: '/api/systeminfo',
    operationId: 'getSystemInfo',
    summary: 'System information',
    description: 'Operating system, memory and launcher identity. The bridge method `getSystemInfo` (permission `system:info`) reads it.',
  },
  {
    ...systemInfo,
    method: 'get',
    path: '/api/system/info',
    operationId: 'getSystemInfoAlias',
    summary: 'System information (alias of `/api/systeminfo`)',
  },
  {
    method: 'post',
    path: '/api/system/open-url',
    operationId: 'openUrl',
    tag: 'system',
    summary: "Open a URL in the user's browser",
    description:
      'Only absolute http and https URLs; anything else gives 400 `INVALID_ARGUMENT`. The URL is handed to the platform opener (`xdg-open`, `open`, `rundll32 url.dll,FileProtocolHandler`) as one argument, never through a shell, with the same scrubbed environment as shell commands (no launcher secrets). The answer comes when the opener exits with status 0, or is still running after 3 s (it runs the browser itself); an opener that cannot start or exits with a failure status (no default browser) gives 502 `URL_OPEN_FAILED`, so the plugin learns the URL was not opened.',
    body: { json: schemaRef('OpenUrlRequest') },
    responses: { 200: jsonResponse('Opened by the platform opener.', 'OpenUrlResult') },
    errors: ['INVALID_ARGUMENT', 'URL_OPEN_FAILED'],
  },
];
