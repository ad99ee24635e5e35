import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bytesToBase64, ed25519PublicKeyFromSeed, issueCertificate, keyIdOf } from '@plughost/host-sdk/core';
import { createNodeSigner, readPrivateKey } from '@plughost/host-sdk/node';
import { seedOf } from '../../../support/plugin-package.js';
import { DEVELOPER_SEEDS, startPublishingServer, type ErrorBody, type KeyAnswer, type PublishingServer } from './publishing-support.js';
import { forEachStore } from '../store-support.js';

forEachStore(() => {
  /** The answer of `GET /developer/keys/<keyId>`. */
  interface KeyStatus {
    keyId: string;
    certified: boolean;
    certifiedAt: string;
    expiresAt: string | null;
    revoked: boolean;
    revokedAt: string | null;
    certificate: KeyAnswer['certificate'];
  }

  function keyIdOfSeed(seed: Uint8Array): string {
    return keyIdOf(ed25519PublicKeyFromSeed(seed));
  }

  describe('GET /developer/keys/<keyId>', () => {
    let server: PublishingServer;
    beforeEach(async () => {
      server = await startPublishingServer();
    });
    afterEach(() => server.close());

    it('needs a signed-in account: 401 without a credential or with a wrong one', async () => {
      await server.certify('alice', DEVELOPER_SEEDS.alice1);
      const path = `/developer/keys/${keyIdOfSeed(DEVELOPER_SEEDS.alice1)}`;
      const anonymous = await server.request(path);
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('www-authenticate')).toBe('Bearer');
      expect(((await anonymous.json()) as ErrorBody).error.code).toBe('unauthorized');
      const wrong = await server.request(path, { token: 'not-a-key-0123456789abcdef0123456789' });
      expect(wrong.status).toBe(401);
      expect(wrong.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    });

    it('answers a certified key with its certificate, no expiry and not revoked, never cached', async () => {
      const certified = (await (await server.certify('alice', DEVELOPER_SEEDS.alice1)).json()) as KeyAnswer;
      const certifiedAt = server.clock.now().toISOString();
      server.clock.advance(5_000);
      const response = await server.request(`/developer/keys/${certified.keyId}`, { as: 'alice' });
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(await response.json()).toEqual({
        keyId: certified.keyId,
        certified: true,
        certifiedAt,
        expiresAt: null,
        revoked: false,
        revokedAt: null,
        certificate: certified.certificate,
      } satisfies KeyStatus);
    });

    it('takes a login session as well as an API key', async () => {
      const registered = await server.request('/auth/register', { json: { username: 'dora', password: 'correct horse battery' } });
      expect(registered.status).toBe(201);
      const login = await server.request('/auth/login', { json: { username: 'dora', password: 'correct horse battery' } });
      const { access_token: token } = (await login.json()) as { access_token: string };
      const publicKey = bytesToBase64(ed25519PublicKeyFromSeed(DEVELOPER_SEEDS.carol));
      expect((await server.request('/developer/keys', { token, json: { publicKey } })).status).toBe(201);
      const response = await server.request(`/developer/keys/${keyIdOfSeed(DEVELOPER_SEEDS.carol)}`, { token });
      expect(response.status).toBe(200);
      expect(((await response.json()) as KeyStatus).certified).toBe(true);
    });

    it('answers 404 not_found for a key the store never certified', async () => {
      const keyId = keyIdOfSeed(DEVELOPER_SEEDS.stranger);
      const response = await server.request(`/developer/keys/${keyId}`, { as: 'alice' });
      expect(response.status).toBe(404);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const body = (await response.json()) as ErrorBody;
      expect(body.error.code).toBe('not_found');
      expect(body.error.message).toContain(keyId);
    });

    it("answers another account's key exactly as an unknown one", async () => {
      await server.certify('bob', DEVELOPER_SEEDS.bob);
      const bobs = keyIdOfSeed(DEVELOPER_SEEDS.bob);
      const unknown = keyIdOfSeed(DEVELOPER_SEEDS.stranger);
      const asAlice = await server.request(`/developer/keys/${bobs}`, { as: 'alice' });
      const neverSeen = await server.request(`/developer/keys/${unknown}`, { as: 'alice' });
      expect(asAlice.status).toBe(404);
      // Same status, headers that matter and body (but for the key id it names): nothing tells them apart.
      expect(asAlice.headers.get('cache-control')).toBe(neverSeen.headers.get('cache-control'));
      expect((await asAlice.text()).replace(bobs, '<key>')).toBe((await neverSeen.text()).replace(unknown, '<key>'));
      // Bob himself sees it.
      expect((await server.request(`/developer/keys/${bobs}`, { as: 'bob' })).status).toBe(200);
    });

    it('answers a replaced key as revoked, with the time, and its successor as certified', async () => {
      const first = (await (await server.certify('alice', DEVELOPER_SEEDS.alice1)).json()) as KeyAnswer;
      server.clock.advance(60_000);
      const second = (await (await server.certify('alice', DEVELOPER_SEEDS.alice2)).json()) as KeyAnswer;
      const revokedAt = server.clock.now().toISOString();

      const old = (await (await server.request(`/developer/keys/${first.keyId}`, { as: 'alice' })).json()) as KeyStatus;
      expect(old).toMatchObject({ keyId: first.keyId, certified: false, revoked: true, revokedAt, expiresAt: null });
      const current = (await (await server.request(`/developer/keys/${second.keyId}`, { as: 'alice' })).json()) as KeyStatus;
      expect(current).toMatchObject({ keyId: second.keyId, certified: true, revoked: false, revokedAt: null, certifiedAt: revokedAt });
    });

    it('answers a key whose certificate came from a replaced root key as not certified (and not revoked)', async () => {
      // A key certified while the store had another root: its stored certificate no longer verifies.
      const formerRoot = readPrivateKey(Buffer.from(seedOf(0x5e)).toString('base64'));
      const publicKey = ed25519PublicKeyFromSeed(DEVELOPER_SEEDS.alice1);
      const accountId = await server.accountId('alice');
      const outcome = await server.publishing.repository.certifyKey({
        accountId,
        keyId: keyIdOf(publicKey),
        publicKey: bytesToBase64(publicKey),
        certificate: issueCertificate({ rootSigner: createNodeSigner(formerRoot.keyObject), publicKey, developerId: accountId }),
        at: server.clock.now().toISOString(),
      });
      expect(outcome.kind).toBe('certified');
      const status = (await (await server.request(`/developer/keys/${keyIdOf(publicKey)}`, { as: 'alice' })).json()) as KeyStatus;
      expect(status).toMatchObject({ certified: false, revoked: false });
      expect(status.certificate.issuer.keyId).toBe(keyIdOf(formerRoot.publicKey));

      // Certifying it again (what pluginctl publish does) gives it the current root's certificate.
      expect((await server.certify('alice', DEVELOPER_SEEDS.alice1)).status).toBe(200);
      const renewed = (await (await server.request(`/developer/keys/${keyIdOf(publicKey)}`, { as: 'alice' })).json()) as KeyStatus;
      expect(renewed.certified).toBe(true);
    });

    it('refuses a malformed key id with 400 invalid_argument, and still serves the revocation list', async () => {
      for (const keyId of ['ABCDEF0123456789', 'abc', '0123456789abcdef0', 'zzzzzzzzzzzzzzzz']) {
        const response = await server.request(`/developer/keys/${keyId}`, { as: 'alice' });
        expect(response.status, keyId).toBe(400);
        expect(((await response.json()) as ErrorBody).error.code).toBe('invalid_argument');
      }
      const list = await server.request('/developer/keys/revoked');
      expect(list.status).toBe(200);
      expect(await list.json()).toMatchObject({ revoked: [] });
    });
  });
});
