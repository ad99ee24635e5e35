import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthServer, type AuthServer, type TokenPair } from './auth-support.js';
import { forEachStore } from '../store-support.js';

forEachStore(() => {
  let server: AuthServer;
  let user = 0;

  beforeAll(async () => {
    server = await startAuthServer();
  });
  afterAll(() => server.close());

  /** A fresh account and its first token pair (each test has its own session). */
  const freshSession = (): Promise<TokenPair> => server.signUp(`session-user${++user}`);

  function refresh(refreshToken: string): Promise<Response> {
    return server.post('/auth/refresh', { refresh_token: refreshToken });
  }

  async function refreshed(refreshToken: string): Promise<TokenPair> {
    const response = await refresh(refreshToken);
    expect(response.status).toBe(200);
    return (await response.json()) as TokenPair;
  }

  async function expectInvalidGrant(response: Response): Promise<void> {
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: 'invalid_grant', error_description: expect.any(String) });
  }

  describe('POST /auth/refresh', () => {
    it('rotates: a new access token and a new refresh token, both working', async () => {
      const first = await freshSession();
      server.advance(1_000);
      const second = await refreshed(first.refresh_token);
      expect(second).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 900, refresh_token: expect.any(String) });
      expect(second.refresh_token).not.toBe(first.refresh_token);
      expect(second.access_token).not.toBe(first.access_token);
      expect((await server.get('/auth/me', second.access_token)).status).toBe(200);
      const third = await refreshed(second.refresh_token);
      expect((await server.get('/auth/me', third.access_token)).status).toBe(200);
    });

    it('detects reuse: a spent refresh token revokes the whole family, newer tokens included', async () => {
      const first = await freshSession();
      const second = await refreshed(first.refresh_token);
      await expectInvalidGrant(await refresh(first.refresh_token));
      // The legitimate holder's newer tokens stop working too.
      await expectInvalidGrant(await refresh(second.refresh_token));
      const me = await server.get('/auth/me', second.access_token);
      expect(me.status).toBe(401);
      expect(me.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
      // Another session of the same account is unaffected.
      const login = await server.post('/auth/login', { username: `session-user${user}`, password: 'correct horse battery' });
      expect((await server.get('/auth/me', ((await login.json()) as TokenPair).access_token)).status).toBe(200);
    });

    it('refuses unknown tokens and a missing field', async () => {
      await expectInvalidGrant(await refresh('not-a-refresh-token'));
      const missing = await server.post('/auth/refresh', {});
      expect(missing.status).toBe(400);
      expect(await missing.json()).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
    });

    it('ends a session 30 days after login however often it was refreshed', async () => {
      let tokens = await freshSession();
      const day = 24 * 60 * 60 * 1000;
      server.advance(10 * day);
      tokens = await refreshed(tokens.refresh_token);
      server.advance(10 * day);
      tokens = await refreshed(tokens.refresh_token);
      server.advance(10 * day - 1_000);
      tokens = await refreshed(tokens.refresh_token);
      server.advance(1_000);
      await expectInvalidGrant(await refresh(tokens.refresh_token));
    });
  });

  describe('POST /auth/logout', () => {
    it('revokes the family of a refresh token', async () => {
      const first = await freshSession();
      const second = await refreshed(first.refresh_token);
      const response = await server.post('/auth/logout', { refresh_token: second.refresh_token });
      expect(response.status).toBe(204);
      await expectInvalidGrant(await refresh(second.refresh_token));
      expect((await server.get('/auth/me', second.access_token)).status).toBe(401);
    });

    it('revokes the session of the bearer access token, and answers 204 for unknown refresh tokens', async () => {
      const tokens = await freshSession();
      const response = await fetch(`${server.api}/auth/logout`, { method: 'POST', headers: { Authorization: `Bearer ${tokens.access_token}` } });
      expect(response.status).toBe(204);
      await expectInvalidGrant(await refresh(tokens.refresh_token));
      expect((await server.post('/auth/logout', { refresh_token: 'unknown' })).status).toBe(204);
      const nothing = await server.post('/auth/logout', {});
      expect(nothing.status).toBe(400);
      expect(((await nothing.json()) as { error: { code: string } }).error.code).toBe('invalid_argument');
    });
  });

  describe('access tokens', () => {
    it('expire after 15 minutes', async () => {
      const tokens = await freshSession();
      server.advance(15 * 60 * 1000 - 1_000);
      expect((await server.get('/auth/me', tokens.access_token)).status).toBe(200);
      server.advance(1_000);
      const expired = await server.get('/test/whoami', tokens.access_token);
      expect(expired.status).toBe(401);
      expect(expired.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
      expect(await expired.json()).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } });
      // The refresh token still gets a fresh one.
      expect((await server.get('/auth/me', (await refreshed(tokens.refresh_token)).access_token)).status).toBe(200);
    });

    it('refuses a tampered token: changed claims, changed signature, or signed with another secret', async () => {
      const tokens = await freshSession();
      const victim = await freshSession();
      const [version, payload = '', signature = ''] = tokens.access_token.split('.');
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
      const victimClaims = JSON.parse(Buffer.from(victim.access_token.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;
      const encode = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

      const otherAccount = `${version}.${encode({ ...claims, sub: victimClaims.sub, sid: victimClaims.sid })}.${signature}`;
      const longerLife = `${version}.${encode({ ...claims, exp: (claims.exp as number) + 86_400 })}.${signature}`;
      const flipped = `${version}.${payload}.${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`;
      const unsigned = `${version}.${payload}.`;
      const foreignKey = createHmac('sha256', Buffer.alloc(32, 7)).update(`${version}.${payload}`).digest('base64url');
      const otherSecret = `${version}.${payload}.${foreignKey}`;
      for (const forged of [otherAccount, longerLife, flipped, unsigned, otherSecret, `${tokens.access_token}x`, 'v1..', '']) {
        const response = await server.get('/test/whoami', forged);
        expect(response.status, forged).toBe(401);
      }
      expect((await server.get('/test/whoami', tokens.access_token)).status).toBe(200);
    });

    it('keep working after a restart (the signing secret lives in the database)', async () => {
      const restarted = await startAuthServer();
      const tokens = await restarted.signUp('restart-user');
      await restarted.close({ keepData: true });
      const again = await startAuthServer({ dataDirectory: restarted.dataDirectory });
      try {
        expect(await (await again.get('/auth/me', tokens.access_token)).json()).toMatchObject({ username: 'restart-user' });
        expect((await again.post('/auth/refresh', { refresh_token: tokens.refresh_token })).status).toBe(200);
      } finally {
        await again.close();
      }
    });
  });

  describe('requireAccount', () => {
    it('answers 401 unauthorized with WWW-Authenticate: Bearer when no credential is sent', async () => {
      const cases: Record<string, string>[] = [{}, { Authorization: 'Basic dXNlcjpwYXNz' }, { Authorization: 'Bearer' }];
      for (const headers of cases) {
        const response = await fetch(`${server.api}/test/whoami`, { headers });
        expect(response.status).toBe(401);
        expect(response.headers.get('www-authenticate')).toBe('Bearer');
        expect(((await response.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
      }
    });

    it('accepts the scheme in any case', async () => {
      const tokens = await freshSession();
      const response = await fetch(`${server.api}/test/whoami`, { headers: { Authorization: `bearer ${tokens.access_token}` } });
      expect(response.status).toBe(200);
    });
  });
});
