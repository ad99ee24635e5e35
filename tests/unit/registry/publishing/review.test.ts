import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '@plughost/host-sdk/core';
import { sampleManifest } from '../../../support/plugin-package.js';
import {
  ADMIN_KEY,
  DEVELOPER_SEEDS,
  libraryManifest,
  signingKeys,
  startPublishingServer,
  type ErrorBody,
  type PublishingServer,
} from './publishing-support.js';
import { forEachStore } from '../store-support.js';

forEachStore(() => {
  interface VersionBody {
    id: string;
    version: string;
    status: string;
    publishedAt?: string;
    reviewNote?: string;
    rolloutPercent: number;
  }

  interface QueueBody {
    items: {
      id: string;
      pluginId: string;
      slug: string;
      pluginName: string;
      version: string;
      permissions: { id: string; risk: string }[];
      layers: string[];
      owner: { accountId: string; username?: string };
      risk: { highest: string; reasons: string[] };
      packageUrl: string;
    }[];
  }

  const aliceKeys = signingKeys(DEVELOPER_SEEDS.alice1);

  function admin(key = ADMIN_KEY): { headers: Record<string, string> } {
    return { headers: { Authorization: `Bearer ${key}` } };
  }

  describe('/admin/* without an admin key configured', () => {
    let server: PublishingServer;
    beforeAll(async () => {
      server = await startPublishingServer();
    });
    afterAll(() => server.close());

    it('answers 403 forbidden to everyone', async () => {
      for (const init of [{}, admin(), admin('')]) {
        const response = await server.request('/admin/review-queue', init);
        expect(response.status).toBe(403);
        expect(((await response.json()) as ErrorBody).error.code).toBe('forbidden');
      }
    });
  });

  describe('the review queue', () => {
    let server: PublishingServer;
    let pageBytes: Uint8Array;
    beforeAll(async () => {
      server = await startPublishingServer({ adminKey: ADMIN_KEY });
      await server.certify('alice', DEVELOPER_SEEDS.alice1);
      await server.request('/plugins', { as: 'alice', json: { id: 'com.example.hello', slug: 'hello', name: 'Hello' } });
      const page = await server.writePackage('hello-1.0.0', { manifest: sampleManifest(), keys: aliceKeys });
      pageBytes = page.bytes;
      expect((await server.upload('alice', 'com.example.hello', page.path, { changelog: 'First.' })).status).toBe(201);
      server.clock.advance(60_000);
      const shell = await server.writePackage('shell-1.0.0', {
        manifest: libraryManifest({ id: 'com.example.shell', name: 'Shell', permissions: ['shell:execute', 'ui:toast'] }),
        keys: aliceKeys,
      });
      expect((await server.upload('alice', 'com.example.shell', shell.path)).status).toBe(201);
    });
    afterAll(() => server.close());

    it('refuses a missing or wrong admin key, and a publisher token, with 403', async () => {
      for (const init of [{}, admin('wrong'), admin(`${ADMIN_KEY}x`), { headers: { Authorization: 'Bearer alice-key-0123456789abcdef0123456789' } }]) {
        const response = await server.request('/admin/review-queue', init);
        expect(response.status).toBe(403);
      }
      const first = (await server.catalog.listPending())[0]!;
      const approve = await server.request(`/admin/versions/${first.id}/approve`, { method: 'POST' });
      expect(approve.status).toBe(403);
      expect((await server.catalog.listPending()).length).toBe(2);
    });

    it('lists pending versions, oldest first, with plugin, permissions, layers and the risk summary', async () => {
      const response = await server.request('/admin/review-queue', admin());
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const body = (await response.json()) as QueueBody;
      expect(body.items.map((item) => [item.pluginId, item.version])).toEqual([
        ['com.example.hello', '1.0.0'],
        ['com.example.shell', '1.0.0'],
      ]);
      const [hello, shell] = body.items;
      expect(hello).toMatchObject({
        slug: 'hello',
        pluginName: 'Hello',
        layers: ['l2'],
        permissions: [
          { id: 'config:read', risk: 'normal' },
          { id: 'ui:toast', risk: 'normal' },
        ],
        owner: { accountId: await server.accountId('alice'), username: 'alice' },
        risk: { highest: 'normal', reasons: [expect.stringMatching(/layers l2/)] },
      });
      expect(shell?.risk).toEqual({ highest: 'danger', reasons: [expect.stringMatching(/shell:execute/)] });

      // The reviewer can fetch the package bytes.
      const download = await fetch(hello!.packageUrl, admin());
      expect(new Uint8Array(await download.arrayBuffer())).toEqual(pageBytes);
    });

    it('approves: the version is published now, listed, and downloadable as uploaded', async () => {
      server.clock.advance(3_600_000);
      const [pending] = ((await (await server.request('/admin/review-queue', admin())).json()) as QueueBody).items;
      const response = await server.request(`/admin/versions/${pending!.id}/approve`, { ...admin(), method: 'POST' });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ id: pending!.id, status: 'published', publishedAt: server.clock.now().toISOString() });

      const detail = (await (await server.request('/plugins/hello')).json()) as { latestVersion: string; versions: { version: string; publishedAt: string }[] };
      expect(detail.latestVersion).toBe('1.0.0');
      expect(detail.versions).toEqual([expect.objectContaining({ version: '1.0.0', publishedAt: server.clock.now().toISOString(), changelog: 'First.' })]);
      const info = (await (await server.request('/plugins/hello/versions/latest/download')).json()) as { url: string; sha256: string; size: number };
      expect(info).toMatchObject({ sha256: sha256Hex(pageBytes), size: pageBytes.length });
      expect(info.url).toBe(`${server.api}/plugins/hello/versions/1.0.0/package`);
      const bytes = new Uint8Array(await (await fetch(info.url)).arrayBuffer());
      expect(bytes).toEqual(pageBytes);

      const again = await server.request(`/admin/versions/${pending!.id}/approve`, { ...admin(), method: 'POST' });
      expect(again.status).toBe(404);
    });

    it('rejects with a reason the owner sees in /plugins/mine; the version stays unlisted', async () => {
      const [pending] = ((await (await server.request('/admin/review-queue', admin())).json()) as QueueBody).items;
      expect(pending?.pluginId).toBe('com.example.shell');
      const noReason = await server.request(`/admin/versions/${pending!.id}/reject`, { ...admin(), json: {} });
      expect(noReason.status).toBe(400);
      const response = await server.request(`/admin/versions/${pending!.id}/reject`, { ...admin(), json: { reason: 'shell:execute is not justified.' } });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ status: 'rejected', reviewNote: 'shell:execute is not justified.' });
      expect(((await (await server.request('/admin/review-queue', admin())).json()) as QueueBody).items).toEqual([]);
      expect((await server.request('/plugins/shell')).status).toBe(404);

      const mine = (await (await server.request('/plugins/mine', { as: 'alice' })).json()) as { items: { id: string; versions: VersionBody[] }[] };
      expect(mine.items.map((plugin) => [plugin.id, plugin.versions.map((version) => [version.version, version.status, version.reviewNote])])).toEqual([
        ['com.example.hello', [['1.0.0', 'published', undefined]]],
        ['com.example.shell', [['1.0.0', 'rejected', 'shell:execute is not justified.']]],
      ]);
    });

    it('answers 404 for an unknown version id', async () => {
      const response = await server.request('/admin/versions/00000000-0000-0000-0000-000000000000/approve', { ...admin(), method: 'POST' });
      expect(response.status).toBe(404);
      expect(((await response.json()) as ErrorBody).error.code).toBe('not_found');
    });
  });

  describe('PATCH /plugins/<id>/versions/<version>', () => {
    let server: PublishingServer;
    beforeAll(async () => {
      server = await startPublishingServer();
      await server.certify('alice', DEVELOPER_SEEDS.alice1);
      for (const version of ['1.0.0', '1.1.0']) {
        const { path } = await server.writePackage(`library-${version}`, { manifest: libraryManifest({ version }), keys: aliceKeys });
        expect((await server.upload('alice', 'com.example.library', path, { changelog: `Release ${version}` })).status).toBe(201);
      }
      const page = await server.writePackage('page', { manifest: sampleManifest({ id: 'com.example.library', version: '2.0.0' }), keys: aliceKeys });
      expect((await server.upload('alice', 'com.example.library', page.path)).status).toBe(201);
    });
    afterAll(() => server.close());

    async function checkUpdates(): Promise<{ updates: { slug: string; latestVersion: string; rolloutPercent: number }[] }> {
      const response = await server.request('/plugins/check-updates', {
        json: { launcherVersion: '1.0.0', installed: [{ slug: 'library', version: '1.0.0' }] },
      });
      return (await response.json()) as { updates: { slug: string; latestVersion: string; rolloutPercent: number }[] };
    }

    it('sets the rollout share of a published version, which check-updates then announces', async () => {
      expect((await checkUpdates()).updates).toEqual([expect.objectContaining({ slug: 'library', latestVersion: '1.1.0', rolloutPercent: 100 })]);
      const response = await server.request('/plugins/com.example.library/versions/1.1.0', { as: 'alice', method: 'PATCH', json: { rolloutPercent: 25 } });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ version: '1.1.0', status: 'published', rolloutPercent: 25 });
      expect((await checkUpdates()).updates).toEqual([expect.objectContaining({ latestVersion: '1.1.0', rolloutPercent: 25 })]);
      const mine = (await (await server.request('/plugins/mine', { as: 'alice' })).json()) as { items: { versions: VersionBody[] }[] };
      expect(mine.items[0]?.versions.map((version) => [version.version, version.status, version.rolloutPercent])).toEqual([
        ['2.0.0', 'pending_review', 100],
        ['1.1.0', 'published', 25],
        ['1.0.0', 'published', 100],
      ]);
    });

    it('refuses values outside 0 to 100, other accounts, unknown and unpublished versions', async () => {
      for (const rolloutPercent of [-1, 101, 12.5, '50', null]) {
        const response = await server.request('/plugins/com.example.library/versions/1.1.0', { as: 'alice', method: 'PATCH', json: { rolloutPercent } });
        expect(response.status, String(rolloutPercent)).toBe(400);
      }
      const other = await server.request('/plugins/com.example.library/versions/1.1.0', { as: 'bob', method: 'PATCH', json: { rolloutPercent: 0 } });
      expect(other.status).toBe(403);
      const anonymous = await server.request('/plugins/com.example.library/versions/1.1.0', { method: 'PATCH', json: { rolloutPercent: 0 } });
      expect(anonymous.status).toBe(401);
      const unknown = await server.request('/plugins/com.example.library/versions/9.9.9', { as: 'alice', method: 'PATCH', json: { rolloutPercent: 0 } });
      expect(unknown.status).toBe(404);
      const pending = await server.request('/plugins/com.example.library/versions/2.0.0', { as: 'alice', method: 'PATCH', json: { rolloutPercent: 0 } });
      expect(pending.status).toBe(409);
      expect(((await pending.json()) as ErrorBody).error.code).toBe('version_not_published');
      expect((await checkUpdates()).updates[0]?.rolloutPercent).toBe(25);
    });
  });
});
