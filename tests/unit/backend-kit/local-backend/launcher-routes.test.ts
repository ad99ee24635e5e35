/**
 * `createLocalBackend`'s `launcherRoutes`: the vendor's routes under `/api` with the backend's
 * security and error bodies, the backend's caller rule, and their descriptions in the OpenAPI
 * document of development mode.
 */
import Router from '@koa/router';
import { afterEach, describe, expect, it } from 'vitest';
import type { LauncherRoutes } from '@plughost/backend-kit';
import { PluginHostError } from '@plughost/host-sdk/core';
import { startTestBackend, type TestBackend } from '../../../support/local-backend.js';

let running: TestBackend | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

const greeting: LauncherRoutes = {
  create: ({ callerOf }) => {
    const router = new Router({ strict: true, sensitive: true });
    router.get('/greeting', async (ctx) => {
      const caller = await callerOf(ctx);
      ctx.body = { caller: caller.pluginId };
    });
    router.get('/failing', () => {
      throw new PluginHostError('INSTANCE_NOT_FOUND', 'No instance nope');
    });
    // The backend's own route wins: a vendor route can never shadow it.
    router.get('/health', (ctx) => {
      ctx.body = { shadowed: true };
    });
    return [router];
  },
  descriptions: [
    {
      method: 'get',
      path: '/api/greeting',
      operationId: 'greet',
      tag: 'launcher-routes',
      summary: 'Says who called',
      responses: { 200: { description: 'The caller.' } },
    },
  ],
};

describe('launcher routes', () => {
  it('are served under /api with the token, and take the caller from X-Plugin-Id', async () => {
    running = await startTestBackend({ launcherRoutes: greeting });
    expect(await (await running.api('/api/greeting')).json()).toEqual({ caller: null });
    expect((await running.api('/api/greeting', { token: null })).status).toBe(401);
    const unknownPlugin = await running.api('/api/greeting', { headers: { 'X-Plugin-Id': 'com.example.absent' } });
    expect(unknownPlugin.status).toBe(404);
    expect(await unknownPlugin.json()).toMatchObject({ error: { code: 'PLUGIN_NOT_FOUND' } });
  });

  it('answer their errors with the error body and status of the code', async () => {
    running = await startTestBackend({ launcherRoutes: greeting });
    const failing = await running.api('/api/failing');
    expect(failing.status).toBe(404);
    expect(await failing.json()).toEqual({ error: { code: 'INSTANCE_NOT_FOUND', message: 'No instance nope' } });
    expect((await running.api('/api/greeting', { method: 'POST', json: {} })).status).toBe(405);
  });

  it('never shadow a route of the backend', async () => {
    running = await startTestBackend({ launcherRoutes: greeting });
    expect(await (await running.api('/api/health')).json()).not.toHaveProperty('shadowed');
  });

  it('are listed in routes and described in the development document', async () => {
    running = await startTestBackend({ launcherRoutes: greeting, development: true });
    expect(running.backend.routes).toContainEqual({ method: 'GET', path: '/api/greeting' });
    const document = (await (await running.api('/openapi/v1.json')).json()) as {
      paths: Record<string, Record<string, { tags: string[] }>>;
      tags: { name: string }[];
    };
    expect(document.paths['/api/greeting']?.get?.tags).toEqual(['launcher-routes']);
    expect(document.tags.map((tag) => tag.name)).toContain('launcher-routes');
    expect(document.paths['/api/instance']).toBeDefined();
  });
});
