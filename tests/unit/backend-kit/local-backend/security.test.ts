import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../../../support/raw-http.js';
import { startTestBackend, type TestBackend } from '../../../support/local-backend.js';

const LAUNCHER_ORIGIN = 'http://launcher.example:5173';

describe('local backend security (decisions section 2)', () => {
  let backend: TestBackend;
  let port: string;

  beforeAll(async () => {
    backend = await startTestBackend({ allowedOrigins: [LAUNCHER_ORIGIN], allowedHosts: ['launcher.internal'] });
    port = new URL(backend.origin).port;
  });

  afterAll(async () => {
    await backend.close();
  });

  describe('bearer token', () => {
    it('is not needed for health, ping, plugin files and preflights', async () => {
      expect((await backend.api('/api/health', { token: null })).status).toBe(200);
      expect((await backend.api('/api/ping', { token: null })).status).toBe(200);
      const file = await backend.api('/api/plugins/com.example.none/files/index.html', { token: null });
      expect(file.status).not.toBe(401);
      const preflight = await backend.api('/api/plugins/', {
        token: null,
        method: 'OPTIONS',
        headers: { Origin: LAUNCHER_ORIGIN, 'Access-Control-Request-Method': 'GET' },
      });
      expect(preflight.status).toBe(204);
    });

    it('lets a launcher page of another origin PATCH the launcher settings (its preflight allows the method)', async () => {
      const preflight = await backend.api('/api/launcher/settings', {
        token: null,
        method: 'OPTIONS',
        headers: { Origin: LAUNCHER_ORIGIN, 'Access-Control-Request-Method': 'PATCH' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-methods')?.split(/,\s*/)).toContain('PATCH');
    });

    it.each([
      ['no header', undefined],
      ['a wrong token', 'Bearer wrong-token-wrong-token-wrong'],
      ['another scheme', 'Basic dXNlcjpwYXNz'],
      ['the token without scheme', '__TOKEN__'],
    ])('refuses %s with 401 UNAUTHORIZED on protected routes', async (_name, authorization) => {
      const headers: Record<string, string> = {};
      if (authorization) headers.Authorization = authorization.replace('__TOKEN__', backend.token);
      for (const [method, path] of [
        ['GET', '/api/plugins/'],
        ['POST', '/api/plugins/settings/com.example.a'],
        ['GET', '/api/anything'],
      ] as const) {
        const response = await backend.api(path, { token: null, method, headers });
        expect(response.status).toBe(401);
        expect(response.headers.get('www-authenticate')).toBe('Bearer');
        expect(await response.json()).toEqual({ error: { code: 'UNAUTHORIZED', message: expect.stringContaining('Bearer') } });
      }
    });

    it('lets the right token through to routing', async () => {
      const response = await backend.api('/api/no-such-route');
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'No route GET /api/no-such-route' } });
    });

    it('generates a long random token per start when none is configured', async () => {
      const other = await startTestBackend();
      try {
        expect(other.token).not.toBe(backend.token);
        expect(other.token.length).toBeGreaterThanOrEqual(32);
      } finally {
        await other.close();
      }
    });
  });

  describe('Host header (DNS-rebinding guard)', () => {
    it.each(['localhost', '127.0.0.1', '[::1]', 'launcher.internal'])('accepts %s with the backend port', async (host) => {
      const response = await rawRequest(backend.origin, '/api/health', { headers: { Host: `${host}:${port}` } });
      expect(response.status).toBe(200);
    });

    it.each([
      ['a rebinding domain', 'evil.example'],
      ['a rebinding domain with the right port', `evil.example:__PORT__`],
      ['localhost on another port', 'localhost:1'],
      ['a look-alike', `localhost.evil.example:__PORT__`],
      ['an empty host', ''],
    ])('refuses %s with 403 HOST_NOT_ALLOWED, health routes included', async (_name, host) => {
      for (const path of ['/api/health', '/api/plugins/']) {
        const response = await rawRequest(backend.origin, path, {
          headers: { Host: host.replace('__PORT__', port), Authorization: `Bearer ${backend.token}` },
        });
        expect(response.status).toBe(403);
        expect(JSON.parse(response.body)).toMatchObject({ error: { code: 'HOST_NOT_ALLOWED' } });
      }
    });
  });

  describe('CORS', () => {
    it('allows only the launcher origins on API routes', async () => {
      const allowed = await backend.api('/api/health', { headers: { Origin: LAUNCHER_ORIGIN } });
      expect(allowed.headers.get('access-control-allow-origin')).toBe(LAUNCHER_ORIGIN);
      const foreign = await backend.api('/api/health', { headers: { Origin: 'https://evil.example' } });
      expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
      const preflight = await backend.api('/api/plugins/', {
        token: null,
        method: 'OPTIONS',
        headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'GET' },
      });
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
      expect(preflight.headers.get('access-control-allow-methods')).toBeNull();
    });

    it('opens plugin files to any origin, sandboxed frames (origin null) included', async () => {
      const response = await backend.api('/api/plugins/com.example.none/files/index.html', { token: null, headers: { Origin: 'null' } });
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
    });
  });

  it('answers a wrong method with 405 METHOD_NOT_ALLOWED and the allowed methods', async () => {
    const response = await backend.api('/api/health', { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toContain('GET');
    expect(await response.json()).toMatchObject({ error: { code: 'METHOD_NOT_ALLOWED' } });
  });

  it('leaves paths outside /api to the vendor app', async () => {
    const response = await fetch(`${backend.origin}/index.html`);
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain('"error"');
  });
});
