import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RegistryAuthenticate } from '@plughost/registry';
import { STRONG_PASSWORD, startAuthServer, type AuthServer } from './auth-support.js';
import { forEachStore } from '../store-support.js';

forEachStore(() => {
  const CI_KEY = 'ci-key-0123456789abcdef0123456789abcdef';
  const SECOND_KEY = 'second-key-abcdefabcdefabcdefabcdef';

  describe('publisher API keys', () => {
    let server: AuthServer;
    beforeAll(async () => {
      server = await startAuthServer({
        apiKeys: [
          { username: 'CI-Publisher', key: CI_KEY },
          { username: 'ci-publisher', key: SECOND_KEY },
        ],
      });
    });
    afterAll(() => server.close());

    it('creates the key accounts on start, as api accounts without a password, which the store never gives one', async () => {
      const { repository } = server.module;
      const account = await repository.findAccountByUsername('ci-publisher');
      expect(account).toMatchObject({ username: 'ci-publisher', kind: 'api', passwordHash: null });
      await repository.setPasswordHash(account!.id, '$scrypt$ln=15,r=8,p=1$c2FsdA$a2V5');
      expect(await repository.findAccountById(account!.id)).toMatchObject({ passwordHash: null });
    });

    it('authenticate a bearer key as the bound account', async () => {
      for (const key of [CI_KEY, SECOND_KEY]) {
        const response = await server.get('/test/whoami', key);
        expect(response.status).toBe(200);
        expect(await response.json()).toEqual({ accountId: expect.any(String), username: 'ci-publisher', method: 'api_key' });
      }
      expect(await (await server.get('/auth/me', CI_KEY)).json()).toMatchObject({ username: 'ci-publisher' });
    });

    it('refuse a wrong key, a prefix of a key and a key with an extra character', async () => {
      for (const wrong of ['ci-key-0123456789abcdef0123456789abcdee', CI_KEY.slice(0, -1), `${CI_KEY}0`]) {
        const response = await server.get('/test/whoami', wrong);
        expect(response.status).toBe(401);
        expect(response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
      }
    });

    it("fit the registry's RegistryAuthenticate, so the composition can pass the authenticator on", () => {
      const authenticate: RegistryAuthenticate = server.module.authenticate;
      expect(authenticate).toBe(server.module.authenticate);
    });

    it('take a key of exactly 32 characters', async () => {
      const shortest = await startAuthServer({ apiKeys: [{ username: 'jill', key: 'k'.repeat(32) }] });
      try {
        expect(await (await shortest.get('/test/whoami', 'k'.repeat(32))).json()).toMatchObject({ username: 'jill', method: 'api_key' });
      } finally {
        await shortest.close();
      }
    });

    it('cannot be used to log in with a password', async () => {
      expect((await server.post('/auth/login', { username: 'ci-publisher', password: STRONG_PASSWORD })).status).toBe(401);
    });
  });

  describe('API key configuration', () => {
    it('refuse invalid configuration at start', async () => {
      await expect(startAuthServer({ apiKeys: [{ username: 'x', key: CI_KEY }] })).rejects.toThrow(/not a valid username/);
      await expect(startAuthServer({ apiKeys: [{ username: 'jack', key: '' }] })).rejects.toThrow(/non-empty/);
      await expect(startAuthServer({ apiKeys: [{ username: 'jack', key: 'k'.repeat(31) }] })).rejects.toThrow(/has 31 characters.*openssl rand -hex 32/);
      await expect(
        startAuthServer({
          apiKeys: [
            { username: 'jack', key: CI_KEY },
            { username: 'kate', key: CI_KEY },
          ],
        }),
      ).rejects.toThrow(/configured twice/);
    });
  });
});
