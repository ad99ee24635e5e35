import { headerRef } from '../components/parameters.js';
import type { RouteDescription } from '../route-description.js';

const noStore = { 'Cache-Control': headerRef('CacheControl') };

/** `routes/health.ts` */
export const healthRoutes: readonly RouteDescription[] = [
  {
    method: 'get',
    path: '/api/health',
    operationId: 'getHealth',
    tag: 'health',
    summary: 'Health check',
    description: 'Answers as long as the process runs. Needs no token, but the Host check still applies.',
    token: false,
    responses: {
      200: {
        description: 'The backend is up.',
        headers: noStore,
        content: { 'application/json': { schema: { type: 'object', required: ['status'], properties: { status: { const: 'ok' } } } } },
      },
    },
  },
  {
    method: 'get',
    path: '/api/ping',
    operationId: 'ping',
    tag: 'health',
    summary: 'Liveness ping',
    description: 'Same as `/api/health`, for clients that expect a ping.',
    token: false,
    responses: {
      200: {
        description: 'The backend is up.',
        headers: noStore,
        content: { 'application/json': { schema: { type: 'object', required: ['pong'], properties: { pong: { const: true } } } } },
      },
    },
  },
];
