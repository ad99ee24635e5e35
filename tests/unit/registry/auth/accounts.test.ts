import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { STRONG_PASSWORD, startAuthServer, type AuthServer, type TokenPair } from './auth-support.js';
import { forEachStore } from '../store-support.js';

forEachStore(() => {
  describe('POST /auth/register', () => {
    let server: AuthServer;
    beforeAll(async () => {
      server = await startAuthServer();
    });
    afterAll(() => server.close());

    it('creates an account with a lower-cased username and stores only a scrypt hash', async () => {
      const response = await server.post('/auth/register', { username: 'Alice_01', password: STRONG_PASSWORD });
      expect(response.status).toBe(201);
      const body = (await response.json()) as { id: string; username: string };
      expect(body).toEqual({ id: expect.any(String), username: 'alice_01' });
      const account = await server.module.repository.findAccountByUsername('alice_01');
      expect(account).toMatchObject({ id: body.id, kind: 'user' });
      expect(account?.passwordHash).toMatch(/^\$scrypt\$ln=15,r=8,p=1\$/);
      expect(account?.passwordHash).not.toContain(STRONG_PASSWORD);
    });

    it('answers 409 username_taken for a taken username in any case', async () => {
      await server.post('/auth/register', { username: 'bob', password: STRONG_PASSWORD });
      const response = await server.post('/auth/register', { username: 'BOB', password: 'another password' });
      expect(response.status).toBe(409);
      expect(await response.json()).toEqual({ error: { code: 'username_taken', message: expect.any(String) } });
    });

    it('refuses usernames and passwords that break the rules', async () => {
      for (const username of ['ab', 'a'.repeat(33), 'has space', 'dot.name', 'ünï', '']) {
        const response = await server.post('/auth/register', { username, password: STRONG_PASSWORD });
        expect(response.status, username).toBe(400);
        expect(((await response.json()) as { error: { code: string } }).error.code).toBe('invalid_username');
      }
      const short = await server.post('/auth/register', { username: 'carol', password: '123456789' });
      expect(short.status).toBe(400);
      expect(((await short.json()) as { error: { code: string } }).error.code).toBe('invalid_password');
      expect(await server.module.repository.findAccountByUsername('carol')).toBeNull();
    });

    it('accepts a form-encoded body and answers malformed JSON with 400 invalid_argument', async () => {
      expect((await server.post('/auth/register', { username: 'dave', password: STRONG_PASSWORD }, { form: true })).status).toBe(201);
      const malformed = await fetch(`${server.api}/auth/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"username":' });
      expect(malformed.status).toBe(400);
      expect(((await malformed.json()) as { error: { code: string } }).error.code).toBe('invalid_argument');
    });
  });

  describe('POST /auth/login', () => {
    let server: AuthServer;
    beforeAll(async () => {
      server = await startAuthServer({ apiKeys: [{ username: 'ci-bot', key: 'ci-key-0123456789abcdef0123456789' }] });
      await server.post('/auth/register', { username: 'erin', password: STRONG_PASSWORD });
    });
    afterAll(() => server.close());

    it('answers an OAuth token response whose access token works as a bearer token', async () => {
      const response = await server.post('/auth/login', { username: 'Erin', password: STRONG_PASSWORD });
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const tokens = (await response.json()) as TokenPair;
      expect(tokens).toEqual({ access_token: expect.stringMatching(/^v1\./), token_type: 'Bearer', expires_in: 900, refresh_token: expect.any(String) });
      const me = await server.get('/auth/me', tokens.access_token);
      expect(me.status).toBe(200);
      expect(await me.json()).toEqual({ id: expect.any(String), username: 'erin' });
      const whoami = await server.get('/test/whoami', tokens.access_token);
      expect(await whoami.json()).toMatchObject({ username: 'erin', method: 'access_token' });
    });

    it('gives one answer for an unknown user, a wrong password and a password-less API key account', async () => {
      const answers = await Promise.all([
        server.post('/auth/login', { username: 'nobody', password: STRONG_PASSWORD }),
        server.post('/auth/login', { username: 'erin', password: 'wrong password!' }),
        server.post('/auth/login', { username: 'ci-bot', password: STRONG_PASSWORD }),
        server.post('/auth/login', { username: 'x', password: '' }),
      ]);
      const bodies: unknown[] = [];
      for (const answer of answers) {
        expect(answer.status).toBe(401);
        bodies.push(await answer.json());
      }
      expect(new Set(bodies.map((body) => JSON.stringify(body))).size).toBe(1);
      expect(bodies[0]).toEqual({ error: { code: 'invalid_credentials', message: 'Wrong username or password' } });
    });

    it('runs scrypt for an unknown user too, so timing does not reveal which usernames exist', async () => {
      // Warm both paths, then compare: without the throw-away hash, the unknown user would answer
      // in about a millisecond instead of about as long as a real password check.
      const elsewhere = { headers: { 'X-Forwarded-For': '198.51.100.7' } };
      await server.post('/auth/login', { username: 'ghost', password: 'x'.repeat(12) }, elsewhere);
      const time = async (username: string): Promise<number> => {
        let fastest = Infinity;
        for (let run = 0; run < 3; run++) {
          const started = performance.now();
          await server.post('/auth/login', { username, password: 'not the password' }, elsewhere);
          fastest = Math.min(fastest, performance.now() - started);
        }
        return fastest;
      };
      const wrongPassword = await time('erin');
      const unknownUser = await time('ghost2');
      expect(unknownUser).toBeGreaterThan(wrongPassword * 0.5);
    });

    it('needs both fields as strings', async () => {
      const response = await server.post('/auth/login', { username: 'erin' });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('invalid_argument');
    });
  });

  describe('login rate limiting', () => {
    let server: AuthServer;
    beforeEach(async () => {
      server = await startAuthServer();
    });
    afterEach(() => server.close());

    it('answers 429 rate_limited after 10 failures for one username from one address, even with the right password, until the window passes', async () => {
      await server.post('/auth/register', { username: 'frank', password: STRONG_PASSWORD });
      for (let attempt = 0; attempt < 10; attempt++) {
        expect((await server.post('/auth/login', { username: 'frank', password: `wrong-${attempt}-guess` })).status).toBe(401);
      }
      const limited = await server.post('/auth/login', { username: 'FRANK', password: STRONG_PASSWORD });
      expect(limited.status).toBe(429);
      expect(await limited.json()).toEqual({ error: { code: 'rate_limited', message: expect.any(String) } });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(800);
      expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(900);

      server.advance(15 * 60 * 1000 + 1);
      expect((await server.post('/auth/login', { username: 'frank', password: STRONG_PASSWORD })).status).toBe(200);
    });

    it('limits one client address across usernames', async () => {
      await server.post('/auth/register', { username: 'grace', password: STRONG_PASSWORD });
      for (let attempt = 0; attempt < 10; attempt++) {
        expect((await server.post('/auth/login', { username: `guess${attempt}`, password: 'some password' })).status).toBe(401);
      }
      expect((await server.post('/auth/login', { username: 'grace', password: STRONG_PASSWORD })).status).toBe(429);
      server.advance(15 * 60 * 1000 + 1);
      expect((await server.post('/auth/login', { username: 'grace', password: STRONG_PASSWORD })).status).toBe(200);
    });

    it('limits registrations per client address', async () => {
      for (let index = 0; index < 10; index++) {
        expect((await server.post('/auth/register', { username: `user${index}`, password: STRONG_PASSWORD })).status).toBe(201);
      }
      const limited = await server.post('/auth/register', { username: 'user10', password: STRONG_PASSWORD });
      expect(limited.status).toBe(429);
      expect(((await limited.json()) as { error: { code: string } }).error.code).toBe('rate_limited');
    });
  });
});
