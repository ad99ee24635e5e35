import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  base64ToBytes,
  certificatePayload,
  ed25519PublicKeyFromSeed,
  keyIdOf,
  serializeCertificate,
  validateCertificate,
  verifyEd25519,
  verifyPackageSignature,
  verifyRevocationList,
} from '@plughost/host-sdk/core';
import { extractPackage } from '@plughost/backend-kit';
import {
  DEVELOPER_SEEDS,
  libraryManifest,
  publicKeyOf,
  signingKeys,
  startPublishingServer,
  type ErrorBody,
  type KeyAnswer,
  type PublishingServer,
} from './publishing-support.js';
import { forEachStore } from '../store-support.js';

forEachStore(() => {
  describe('POST /developer/keys', () => {
    let server: PublishingServer;
    beforeEach(async () => {
      server = await startPublishingServer();
    });
    afterEach(() => server.close());

    it('needs a signed-in account', async () => {
      const response = await server.request('/developer/keys', { json: { publicKey: publicKeyOf(DEVELOPER_SEEDS.alice1) } });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      expect(((await response.json()) as ErrorBody).error.code).toBe('unauthorized');
    });

    it('refuses malformed keys with 400 invalid_key', async () => {
      const malformed: unknown[] = [
        'not base64!',
        Buffer.alloc(31, 7).toString('base64'),
        Buffer.alloc(33, 7).toString('base64'),
        publicKeyOf(DEVELOPER_SEEDS.alice1).replace(/=$/, ''),
        '',
        42,
        null,
      ];
      for (const publicKey of malformed) {
        const response = await server.request('/developer/keys', { as: 'alice', json: { publicKey } });
        expect(response.status, String(publicKey)).toBe(400);
        expect(((await response.json()) as ErrorBody).error.code).toBe('invalid_key');
      }
      const missing = await server.request('/developer/keys', { as: 'alice', json: {} });
      expect(((await missing.json()) as ErrorBody).error.code).toBe('invalid_key');
    });

    it('refuses weak (small-order) keys: all zero, the identity point, a point of order 8', async () => {
      const identity = new Uint8Array(32);
      identity[0] = 1;
      const orderEight = Buffer.from('26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05', 'hex');
      for (const bytes of [new Uint8Array(32), identity, orderEight]) {
        const publicKey = Buffer.from(bytes).toString('base64');
        const response = await server.request('/developer/keys', { as: 'alice', json: { publicKey } });
        expect(response.status, publicKey).toBe(400);
        const body = (await response.json()) as ErrorBody;
        expect(body.error.code).toBe('invalid_key');
        expect(body.error.message).toMatch(/weak \(small-order\)/);
      }
      expect(Buffer.from(identity).toString('base64')).toBe('AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=');
    });

    it('issues a certificate that verifies under the root and names the account', async () => {
      const response = await server.certify('alice', DEVELOPER_SEEDS.alice1);
      expect(response.status).toBe(201);
      const body = (await response.json()) as KeyAnswer;
      const publicKey = ed25519PublicKeyFromSeed(DEVELOPER_SEEDS.alice1);
      expect(body.keyId).toBe(keyIdOf(publicKey));
      expect(body.revoked).toEqual([]);
      const certificate = validateCertificate(body.certificate);
      expect(certificate).toEqual({
        algorithm: 'Ed25519',
        keyId: body.keyId,
        publicKey: publicKeyOf(DEVELOPER_SEEDS.alice1),
        issuer: { keyId: keyIdOf(base64ToBytes(server.rootPublicKey)) },
        developerId: await server.accountId('alice'),
        signature: expect.any(String),
      });
      expect(verifyEd25519(base64ToBytes(server.rootPublicKey), certificatePayload(certificate), base64ToBytes(certificate.signature))).toBe(true);

      // A package carrying this very certificate passes the core's package verifier.
      const built = await server.writePackage('with-registry-certificate', {
        manifest: libraryManifest(),
        keys: signingKeys(DEVELOPER_SEEDS.alice1),
        afterSigning: (entries) => entries.set('signature.cert.json', serializeCertificate(certificate)),
      });
      const extracted = await extractPackage(built.path, { workDirectory: server.context.options.dataDirectory });
      try {
        const result = verifyPackageSignature(extracted, { rootPublicKey: server.rootPublicKey });
        expect(result).toEqual({
          status: 'valid',
          signer: { keyId: body.keyId, publicKey: certificate.publicKey, developerId: await server.accountId('alice') },
        });
      } finally {
        await extracted.dispose();
      }
    });

    it('answers a re-upload of the current key with the same certificate and revokes nothing', async () => {
      const first = (await (await server.certify('alice', DEVELOPER_SEEDS.alice1)).json()) as KeyAnswer;
      const again = await server.certify('alice', DEVELOPER_SEEDS.alice1);
      expect(again.status).toBe(200);
      expect(await again.json()).toEqual({ keyId: first.keyId, certificate: first.certificate, revoked: [] });
      const list = (await (await server.request('/developer/keys/revoked')).json()) as { revoked: string[] };
      expect(list.revoked).toEqual([]);
    });

    it('revokes the previous key when the account certifies a new one, for good', async () => {
      const first = (await (await server.certify('alice', DEVELOPER_SEEDS.alice1)).json()) as KeyAnswer;
      server.clock.advance(1000);
      const second = await server.certify('alice', DEVELOPER_SEEDS.alice2);
      expect(second.status).toBe(201);
      const body = (await second.json()) as KeyAnswer;
      expect(body.revoked).toEqual([first.keyId]);
      expect(body.certificate.developerId).toBe(first.certificate.developerId);

      const records = await server.publishing.repository.keysOf(await server.accountId('alice'));
      expect(records.map((key) => [key.keyId, key.revokedAt])).toEqual([
        [body.keyId, null],
        [first.keyId, server.clock.now().toISOString()],
      ]);

      // A revoked key never comes back.
      const revokedAgain = await server.certify('alice', DEVELOPER_SEEDS.alice1);
      expect(revokedAgain.status).toBe(400);
      expect(((await revokedAgain.json()) as ErrorBody).error).toEqual({ code: 'invalid_key', message: expect.stringMatching(/revoked/) });
    });

    it("refuses another account's key with 409 key_taken and leaves it unrevoked", async () => {
      await server.certify('alice', DEVELOPER_SEEDS.alice1);
      const response = await server.certify('bob', DEVELOPER_SEEDS.alice1);
      expect(response.status).toBe(409);
      expect(((await response.json()) as ErrorBody).error.code).toBe('key_taken');
      // Had bob been given alice's key, his next key would have revoked it.
      expect((await server.certify('bob', DEVELOPER_SEEDS.bob)).status).toBe(201);
      const list = (await (await server.request('/developer/keys/revoked')).json()) as { revoked: string[] };
      expect(list.revoked).toEqual([]);
    });
  });

  describe('GET /developer/keys/revoked', () => {
    let server: PublishingServer;
    beforeEach(async () => {
      server = await startPublishingServer();
    });
    afterEach(() => server.close());

    it('serves an empty root-signed list, cacheable for 60 seconds', async () => {
      const response = await server.request('/developer/keys/revoked');
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('public, max-age=60');
      expect(response.headers.get('etag')).toMatch(/^".+"$/);
      const result = verifyRevocationList(new Uint8Array(await response.arrayBuffer()), server.rootPublicKey);
      expect(result).toMatchObject({ status: 'valid', list: { issuedAt: server.clock.now().toISOString(), revoked: [] } });
    });

    it('lists a replaced key at once, signed by the root, with a later issuedAt', async () => {
      const before = (await (await server.request('/developer/keys/revoked')).json()) as { issuedAt: string };
      const first = (await (await server.certify('alice', DEVELOPER_SEEDS.alice1)).json()) as KeyAnswer;
      await server.certify('bob', DEVELOPER_SEEDS.bob);
      await server.certify('alice', DEVELOPER_SEEDS.alice2);

      const response = await server.request('/developer/keys/revoked');
      const result = verifyRevocationList(new Uint8Array(await response.arrayBuffer()), server.rootPublicKey);
      if (result.status !== 'valid') throw new Error(result.reason);
      expect(result.list.revoked).toEqual([first.keyId]);
      // The clock did not move, yet the changed list is later than the one before it.
      expect(result.issuedAtMs).toBeGreaterThan(Date.parse(before.issuedAt));

      const other = verifyRevocationList({ ...result.list, revoked: [] }, server.rootPublicKey);
      expect(other.status).toBe('invalid');
    });

    it('keeps one signed list for a minute, then signs a fresh one', async () => {
      const first = (await (await server.request('/developer/keys/revoked')).json()) as { issuedAt: string; signature: string };
      server.clock.advance(30_000);
      expect(await (await server.request('/developer/keys/revoked')).json()).toEqual(first);
      server.clock.advance(31_000);
      const later = (await (await server.request('/developer/keys/revoked')).json()) as { issuedAt: string };
      expect(later.issuedAt).toBe(server.clock.now().toISOString());
      expect(verifyRevocationList(later, server.rootPublicKey).status).toBe('valid');
    });
  });
});
