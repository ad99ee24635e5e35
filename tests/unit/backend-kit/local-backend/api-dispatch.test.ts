/**
 * The local backend's `/api` dispatch (`local-backend/api-middleware.ts`): methods, strict paths,
 * percent-encoded segments and route precedence on the backend's own routes, behind its checks.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../../../support/raw-http.js';
import { startTestBackend, type TestBackend } from '../../../support/local-backend.js';
import { sampleManifest } from '../../../support/plugin-package.js';

const ID = 'com.example.dispatch';

describe('local backend /api dispatch', () => {
  let backend: TestBackend;
  let auth: Record<string, string>;

  beforeAll(async () => {
    backend = await startTestBackend();
    auth = { Authorization: `Bearer ${backend.token}` };
    const folder = join(backend.dataDirectory, 'plugins', ID);
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'manifest.json'), JSON.stringify(sampleManifest({ id: ID })));
    await writeFile(join(folder, 'settings.json'), JSON.stringify({ greeting: 'hello' }));
  });
  afterAll(() => backend.close());

  it('answers a method a route lacks with 405 METHOD_NOT_ALLOWED naming the allowed ones in Allow', async () => {
    const response = await backend.api(`/api/plugins/settings/${ID}`, { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('HEAD, GET, POST');
    expect(await response.json()).toEqual({
      error: { code: 'METHOD_NOT_ALLOWED', message: `DELETE is not allowed on /api/plugins/settings/${ID}; allowed: HEAD, GET, POST` },
    });
    // `/plugins/:id` has only DELETE; the settings route does not answer a GET of a plugin id.
    const plugin = await backend.api(`/api/plugins/${ID}`);
    expect([plugin.status, plugin.headers.get('allow')]).toEqual([405, 'DELETE']);
  });

  it('answers a plain OPTIONS with Allow, and a method no route implements with 501', async () => {
    const options = await rawRequest(backend.origin, `/api/plugins/settings/${ID}`, { method: 'OPTIONS' });
    expect([options.status, options.headers.allow]).toEqual([200, 'HEAD, GET, POST']);
    const unknown = await rawRequest(backend.origin, '/api/health', { method: 'PROPFIND', headers: auth });
    expect([unknown.status, unknown.headers.allow]).toEqual([501, 'HEAD, GET']);
  });

  it('serves HEAD from a GET route', async () => {
    const response = await rawRequest(backend.origin, `/api/plugins/settings/${ID}`, { method: 'HEAD', headers: auth });
    expect(response.status).toBe(200);
    expect(response.body).toBe('');
  });

  it('keeps paths strict: no trailing slash, no doubled slash, no other case', async () => {
    for (const path of ['/api/health/', `/api/plugins/settings/${ID}/`, `/api//plugins/settings/${ID}`, '/api/Health', '/api/plugins']) {
      const response = await rawRequest(backend.origin, path, { headers: auth });
      expect([path, response.status]).toEqual([path, 404]);
      expect(JSON.parse(response.body)).toEqual({ error: { code: 'NOT_FOUND', message: `No route GET ${path}` } });
    }
    expect((await backend.api('/api/plugins/')).status).toBe(200);
  });

  it('decodes percent-encoded parameters before the plugin id check', async () => {
    const encoded = ID.replaceAll('.', '%2E');
    const response = await rawRequest(backend.origin, `/api/plugins/settings/${encoded}`, { headers: auth });
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ greeting: 'hello' });
    for (const id of ['com.example%2F..%2Fx', 'com.example.a%00', '%E0%A4%A']) {
      const refused = await rawRequest(backend.origin, `/api/plugins/settings/${id}`, { headers: auth });
      expect([id, refused.status, JSON.parse(refused.body).error.code]).toEqual([id, 400, 'INVALID_ARGUMENT']);
    }
  });

  it('matches static segments only as they are spelled: an encoded route name is a parameter', async () => {
    // `%73ettings` is not the static segment `settings` but a value, and no route has a parameter there.
    const response = await rawRequest(backend.origin, `/api/plugins/%73ettings/${ID}`, { headers: auth });
    expect(response.status).toBe(404);
  });

  it('gives routes declared earlier precedence over parameter routes', async () => {
    // `/plugins/updates` (the updates router, mounted before the plugins router) is not the id `updates`.
    const updates = await backend.api('/api/plugins/updates');
    expect(updates.status).toBe(200);
    expect(await updates.json()).toHaveProperty('updates');
    // For DELETE only `/plugins/:id` matches, whose id check refuses `updates`.
    const remove = await backend.api('/api/plugins/updates', { method: 'DELETE' });
    expect([remove.status, (await remove.json()).error.code]).toEqual([400, 'INVALID_ARGUMENT']);
  });

  it('runs the Host check, CORS and the token before any route', async () => {
    const foreign = await rawRequest(backend.origin, `/api/plugins/settings/${ID}`, { method: 'DELETE', headers: { ...auth, Host: 'evil.example' } });
    expect([foreign.status, JSON.parse(foreign.body).error.code]).toEqual([403, 'HOST_NOT_ALLOWED']);
    const noToken = await backend.api(`/api/plugins/settings/${ID}`, { method: 'DELETE', token: null });
    expect(noToken.status).toBe(401);
    const preflight = await backend.api(`/api/plugins/settings/${ID}`, {
      method: 'OPTIONS',
      token: null,
      headers: { Origin: 'http://elsewhere.example', 'Access-Control-Request-Method': 'DELETE' },
    });
    expect([preflight.status, preflight.headers.get('allow')]).toEqual([204, null]);
  });
});
