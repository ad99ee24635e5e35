/**
 * Publisher API keys as the whole registry (`createRegistry`) runs them (decisions 12): each
 * `REGISTRY_API_KEYS` name is an API-key account of its own, which nobody can register or sign in
 * to with a password, and whoever registered a key's name first does not get what CI publishes.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STRONG_PASSWORD, formActionOf, openVerificationPage, submitVerificationForm } from './auth-support.js';
import { DEVELOPER_SEEDS, libraryManifest, publicKeyOf, signingKeys, startPublishingServer, type PublishingServer } from '../publishing/publishing-support.js';
import { startTestRegistry } from '../registry-support.js';
import { forEachStore } from '../store-support.js';

forEachStore(() => {
  const CI_KEY = 'ci-key-0123456789abcdef0123456789abcdef';

  describe('API key accounts (REGISTRY_API_KEYS)', () => {
    it('stop the start when a key names an account registered with a password, naming the clash', async () => {
      const dataDirectory = await mkdtemp(join(tmpdir(), 'registry-key-clash-'));
      try {
        // Someone registers `ci-bot` before the operator configures the CI key of that name...
        const before = await startTestRegistry({ dataDirectory });
        const registered = await before.api('/auth/register', { json: { username: 'ci-bot', password: STRONG_PASSWORD } });
        expect(registered.status).toBe(201);
        await before.close();
        // ...so the key would act as their account: the registry refuses to start.
        const start = startTestRegistry({ dataDirectory, apiKeys: [{ username: 'CI-Bot', key: CI_KEY }] });
        await expect(start).rejects.toThrow(/"ci-bot".*registered with a password/);
        await expect(start).rejects.toThrow(/another name/);
        await expect(start).rejects.not.toThrow(CI_KEY);
      } finally {
        await rm(dataDirectory, { recursive: true, force: true });
      }
    });

    it('stop the start for a key shorter than 32 characters, saying how to make one', async () => {
      const start = startTestRegistry({ apiKeys: [{ username: 'ci-bot', key: 'a' }] });
      await expect(start).rejects.toThrow(/"ci-bot".*at least 32 characters.*openssl rand -hex 32/);
    });

    describe('a running key account', () => {
      let server: PublishingServer;
      beforeAll(async () => {
        server = await startPublishingServer({ apiKeys: [{ username: 'ci-bot', key: CI_KEY }] });
      });
      afterAll(() => server.close());

      it('cannot be registered, nor signed in to with a password (login or device verification page)', async () => {
        const register = await server.request('/auth/register', { json: { username: 'CI-Bot', password: STRONG_PASSWORD } });
        expect(register.status).toBe(409);
        expect(((await register.json()) as { error: { code: string } }).error.code).toBe('username_taken');
        const login = await server.request('/auth/login', { json: { username: 'ci-bot', password: STRONG_PASSWORD } });
        expect(login.status).toBe(401);

        const flow = (await (await server.request('/auth/device/code', { json: {} })).json()) as { user_code: string; verification_uri_complete: string };
        const page = await openVerificationPage(flow.verification_uri_complete);
        const fields = { user_code: flow.user_code, username: 'ci-bot', password: STRONG_PASSWORD, action: 'approve' };
        expect((await submitVerificationForm(formActionOf(page, server.origin), page, fields)).status).toBe(401);
      });

      it('is what a publish with the key is attributed to', async () => {
        expect((await server.request('/developer/keys', { token: CI_KEY, json: { publicKey: publicKeyOf(DEVELOPER_SEEDS.carol) } })).status).toBe(201);
        const manifest = libraryManifest({ id: 'com.example.ci' });
        const { path } = await server.writePackage('ci-library', { manifest, keys: signingKeys(DEVELOPER_SEEDS.carol) });
        const form = new FormData();
        form.append('package', new Blob([await readFile(path)]), 'plugin.plugpkg');
        const upload = await server.request('/plugins/com.example.ci/versions', { method: 'POST', body: form, token: CI_KEY });
        expect(upload.status).toBe(201);

        const account = await server.auth.repository.findAccountByUsername('ci-bot');
        expect(account).toMatchObject({ kind: 'api', passwordHash: null });
        expect((await server.catalog.getPlugin('com.example.ci'))?.ownerAccountId).toBe(account?.id);
      });
    });
  });
});
