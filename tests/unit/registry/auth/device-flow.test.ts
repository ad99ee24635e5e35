import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  STRONG_PASSWORD,
  formActionOf,
  openVerificationPage,
  startAuthServer,
  submitVerificationForm,
  type AuthServer,
  type TokenPair,
} from './auth-support.js';
import { forEachStore } from '../store-support.js';

forEachStore(() => {
  const GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

  interface DeviceCodeResponse {
    device_code: string;
    user_code: string;
    verification_uri: string;
    verification_uri_complete: string;
    expires_in: number;
    interval: number;
  }

  let server: AuthServer;

  beforeAll(async () => {
    server = await startAuthServer();
    await server.signUp('henry');
  });
  afterAll(() => server.close());

  async function startDeviceFlow(body: Record<string, string> = { client_id: 'pluginctl' }): Promise<DeviceCodeResponse> {
    const response = await server.post('/auth/device/code', body, { form: true });
    expect(response.status).toBe(200);
    return (await response.json()) as DeviceCodeResponse;
  }

  function poll(deviceCode: string, form = true): Promise<Response> {
    return server.post('/auth/token', { grant_type: GRANT, device_code: deviceCode }, { form });
  }

  async function oauthError(response: Response): Promise<{ status: number; error: string }> {
    const body = (await response.json()) as { error: string; error_description: string };
    expect(body.error_description).toEqual(expect.any(String));
    return { status: response.status, error: body.error };
  }

  /** Opens the page from `verification_uri_complete` and submits it like a browser. */
  async function decide(flow: DeviceCodeResponse, fields: Record<string, string>): Promise<Response> {
    const page = await openVerificationPage(flow.verification_uri_complete);
    return submitVerificationForm(formActionOf(page, server.origin), page, fields);
  }

  describe('POST /auth/device/code', () => {
    it('answers the RFC 8628 fields with a verification URI under the API root', async () => {
      const flow = await startDeviceFlow();
      expect(flow).toEqual({
        device_code: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        user_code: expect.stringMatching(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/),
        verification_uri: `${server.api}/device`,
        verification_uri_complete: `${server.api}/device?user_code=${flow.user_code}`,
        expires_in: 900,
        interval: 5,
      });
    });

    it('takes JSON or no body at all, and refuses a malformed client_id in the OAuth error shape', async () => {
      expect((await server.post('/auth/device/code', {})).status).toBe(200);
      expect((await fetch(`${server.api}/auth/device/code`, { method: 'POST' })).status).toBe(200);
      expect(await oauthError(await server.post('/auth/device/code', { client_id: 'has space' }))).toEqual({ status: 400, error: 'invalid_request' });
      const malformed = await fetch(`${server.api}/auth/token`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"grant_type"' });
      expect(await oauthError(malformed)).toEqual({ status: 400, error: 'invalid_request' });
    });
  });

  describe('POST /auth/token', () => {
    it('runs the whole flow: pending, approval on the verification page, tokens', async () => {
      const flow = await startDeviceFlow();
      expect(await oauthError(await poll(flow.device_code))).toEqual({ status: 400, error: 'authorization_pending' });

      const page = await openVerificationPage(flow.verification_uri_complete);
      expect(page.status).toBe(200);
      expect(page.html).toContain(`value="${flow.user_code}"`);
      const approved = await submitVerificationForm(formActionOf(page, server.origin), page, {
        user_code: flow.user_code.toLowerCase(),
        username: 'Henry',
        password: STRONG_PASSWORD,
        action: 'approve',
      });
      expect(approved.status).toBe(200);
      expect(await approved.text()).toContain('Device approved');

      server.advance(5_000);
      const response = await poll(flow.device_code);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const tokens = (await response.json()) as TokenPair;
      expect(tokens).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 900, refresh_token: expect.any(String) });
      expect(await (await server.get('/auth/me', tokens.access_token)).json()).toMatchObject({ username: 'henry' });

      // A device code is exchanged once.
      server.advance(5_000);
      expect(await oauthError(await poll(flow.device_code))).toEqual({ status: 400, error: 'invalid_grant' });
    });

    it('accepts JSON polls and user codes typed without the dash', async () => {
      const flow = await startDeviceFlow({});
      expect((await decide(flow, { user_code: flow.user_code.replace('-', ''), username: 'henry', password: STRONG_PASSWORD, action: 'approve' })).status).toBe(
        200,
      );
      expect((await poll(flow.device_code, false)).status).toBe(200);
    });

    it('answers slow_down to polls faster than the interval and adds 5 seconds to it', async () => {
      const flow = await startDeviceFlow();
      expect((await oauthError(await poll(flow.device_code))).error).toBe('authorization_pending');
      server.advance(4_000);
      expect((await oauthError(await poll(flow.device_code))).error).toBe('slow_down');
      // The interval is now 10 seconds, counted from the last poll.
      server.advance(6_000);
      expect((await oauthError(await poll(flow.device_code))).error).toBe('slow_down');
      server.advance(15_000);
      expect((await oauthError(await poll(flow.device_code))).error).toBe('authorization_pending');
      server.advance(15_000);
      expect((await oauthError(await poll(flow.device_code))).error).toBe('authorization_pending');
    });

    it('answers expired_token once the 15 minutes are over, and the page no longer takes the code', async () => {
      const flow = await startDeviceFlow();
      const page = await openVerificationPage(flow.verification_uri_complete);
      server.advance(900_000);
      expect(await oauthError(await poll(flow.device_code))).toEqual({ status: 400, error: 'expired_token' });
      const late = await submitVerificationForm(formActionOf(page, server.origin), page, {
        user_code: flow.user_code,
        username: 'henry',
        password: STRONG_PASSWORD,
        action: 'approve',
      });
      expect(late.status).toBe(400);
      expect(await late.text()).toContain('unknown, expired or already used');
    });

    it('answers access_denied after the user denies (no password needed to deny)', async () => {
      const flow = await startDeviceFlow();
      const denied = await decide(flow, { user_code: flow.user_code, action: 'deny' });
      expect(denied.status).toBe(200);
      expect(await denied.text()).toContain('Request denied');
      expect(await oauthError(await poll(flow.device_code))).toEqual({ status: 400, error: 'access_denied' });
      // A decided code cannot be decided again.
      const again = await decide(flow, { user_code: flow.user_code, username: 'henry', password: STRONG_PASSWORD, action: 'approve' });
      expect(again.status).toBe(400);
    });

    it('refuses a missing or foreign grant type, a missing or unknown device code, and another client', async () => {
      expect(await oauthError(await server.post('/auth/token', { device_code: 'x' }, { form: true }))).toEqual({ status: 400, error: 'invalid_request' });
      expect(await oauthError(await server.post('/auth/token', { grant_type: 'password' }, { form: true }))).toEqual({
        status: 400,
        error: 'unsupported_grant_type',
      });
      expect(await oauthError(await server.post('/auth/token', { grant_type: GRANT }, { form: true }))).toEqual({ status: 400, error: 'invalid_request' });
      expect(await oauthError(await poll('not-a-device-code'))).toEqual({ status: 400, error: 'invalid_grant' });
      const flow = await startDeviceFlow({ client_id: 'pluginctl' });
      const foreign = await server.post('/auth/token', { grant_type: GRANT, device_code: flow.device_code, client_id: 'other' }, { form: true });
      expect(await oauthError(foreign)).toEqual({ status: 400, error: 'invalid_grant' });
    });
  });

  describe('GET|POST /device (verification page)', () => {
    it('is a framing-proof, script-free, uncached HTML form with the code prefilled', async () => {
      const flow = await startDeviceFlow();
      const page = await openVerificationPage(flow.verification_uri_complete);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.headers.get('x-frame-options')).toBe('DENY');
      expect(page.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'");
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(page.headers.get('referrer-policy')).toBe('no-referrer');
      expect(page.html).not.toContain('<script');
      expect(page.html).toMatch(/<input type="password" name="password"|name="password" type="password"/);
      expect(page.html).toContain('value="approve"');
      expect(page.html).toContain('value="deny"');
      expect(formActionOf(page, server.origin)).toBe(`${server.api}/device`);
      const cookie = page.headers.getSetCookie().find((line) => line.startsWith('device_csrf='));
      expect(cookie).toMatch(/; path=\/api\/v1\/device; samesite=strict; httponly/i);
    });

    it('escapes a user code containing HTML', async () => {
      const hostile = '"><script>alert(1)</script><img src=x onerror=alert(2)>';
      const response = await fetch(`${server.api}/device?user_code=${encodeURIComponent(hostile)}`);
      const html = await response.text();
      expect(html).not.toContain('<script>alert(1)</script>');
      expect(html).not.toContain('<img');
      expect(html).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;"');
      // The same when it comes back in a refused post.
      const page = await openVerificationPage(`${server.api}/device`);
      const refused = await submitVerificationForm(`${server.api}/device`, page, { user_code: hostile, action: 'deny' });
      expect(refused.status).toBe(400);
      const refusedHtml = await refused.text();
      expect(refusedHtml).not.toContain('<script>alert(1)</script>');
      expect(refusedHtml).toContain('&lt;script&gt;');
    });

    it('refuses a post without the matching CSRF cookie and token', async () => {
      const flow = await startDeviceFlow();
      const page = await openVerificationPage(flow.verification_uri_complete);
      const fields = { user_code: flow.user_code, username: 'henry', password: STRONG_PASSWORD, action: 'approve' };
      const noCookie = await submitVerificationForm(`${server.api}/device`, { ...page, cookie: '' }, fields);
      expect(noCookie.status).toBe(403);
      const other = await openVerificationPage(`${server.api}/device`);
      const mixed = await submitVerificationForm(`${server.api}/device`, { ...page, cookie: other.cookie }, fields);
      expect(mixed.status).toBe(403);
      const forged = await submitVerificationForm(`${server.api}/device`, { ...page, csrfToken: 'A'.repeat(43) }, fields);
      expect(forged.status).toBe(403);
      expect((await oauthError(await poll(flow.device_code))).error).toBe('authorization_pending');
      // A page opened again with its cookie keeps that cookie, and the form works.
      const reopened = await openVerificationPage(`${server.api}/device`, page.cookie);
      expect(reopened.cookie).toBe(page.cookie);
      expect((await submitVerificationForm(`${server.api}/device`, reopened, fields)).status).toBe(200);
    });

    it('shows the form again after a wrong password, keeping the request pending', async () => {
      const flow = await startDeviceFlow();
      const response = await decide(flow, { user_code: flow.user_code, username: 'henry', password: 'wrong password', action: 'approve' });
      expect(response.status).toBe(401);
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      const html = await response.text();
      expect(html).toContain('Wrong username or password');
      expect(html).toContain(`value="${flow.user_code}"`);
      expect(html).toContain('value="henry"');
      expect((await oauthError(await poll(flow.device_code))).error).toBe('authorization_pending');
    });

    it('limits wrong user codes per client address', async () => {
      const flow = await startDeviceFlow();
      const page = await openVerificationPage(`${server.api}/device`);
      const client = { 'X-Forwarded-For': '203.0.113.9' };
      for (let attempt = 0; attempt < 20; attempt++) {
        expect((await submitVerificationForm(`${server.api}/device`, page, { user_code: 'BBBB-BBBB', action: 'deny' }, client)).status).toBe(400);
      }
      const limited = await submitVerificationForm(`${server.api}/device`, page, { user_code: flow.user_code, action: 'deny' }, client);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await oauthError(await poll(flow.device_code))).error).toBe('authorization_pending');
    });
  });
});
