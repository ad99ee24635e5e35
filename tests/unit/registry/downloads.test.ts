import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileBlobStore } from '@plughost/registry';
import { jsonOf, startTestRegistry, type SeededPlugin, type TestRegistry } from './registry-support.js';
import { forEachStore } from './store-support.js';

forEachStore(() => {
  const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

  describe('GET /plugins/<slug>/versions/<version>/download', () => {
    let store: TestRegistry;
    let seeded: SeededPlugin;

    beforeAll(async () => {
      store = await startTestRegistry();
      seeded = await store.seed({
        id: 'com.example.hello',
        slug: 'hello',
        versions: [{ version: '1.0.0' }, { version: '1.1.0' }, { version: '1.2.0', status: 'pending_review' }, { version: '0.9.0', status: 'rejected' }],
      });
    });
    afterAll(() => store.close());

    it('answers the Download info of an exact version, pointing at this registry', async () => {
      const response = await store.api('/plugins/hello/versions/1.0.0/download');
      expect(response.status).toBe(200);
      const bytes = seeded.bytes.get('1.0.0')!;
      expect(await jsonOf(response)).toEqual({
        url: `${store.base}/plugins/hello/versions/1.0.0/package`,
        sha256: sha256(bytes),
        size: bytes.length,
      });
      expect(response.headers.get('cache-control')).toBe('public, max-age=60');
    });

    it('resolves latest to the latest published version, whose url names that version', async () => {
      const body = await jsonOf(await store.api('/plugins/hello/versions/latest/download'));
      expect(body.url).toBe(`${store.base}/plugins/hello/versions/1.1.0/package`);
      expect(body.sha256).toBe(sha256(seeded.bytes.get('1.1.0')!));
    });

    it.each([
      ['/plugins/hello/versions/1.2.0/download', 'pending'],
      ['/plugins/hello/versions/0.9.0/download', 'rejected'],
      ['/plugins/hello/versions/3.0.0/download', 'unknown version'],
      ['/plugins/nope/versions/latest/download', 'unknown plugin'],
      ['/plugins/hello/versions/1.2.0/package', 'pending bytes'],
      ['/plugins/hello/versions/0.9.0/package', 'rejected bytes'],
    ])('answers 404 not_found for %s (%s)', async (path) => {
      const response = await store.api(path);
      expect(response.status).toBe(404);
      expect((await jsonOf<{ error: { code: string } }>(response)).error.code).toBe('not_found');
    });

    it('adds a mirrorUrl on the first mirror domain, same path, when mirrors are configured', async () => {
      const mirrored = await startTestRegistry({ mirrors: ['cdn.example.net', 'cdn2.example.net'] });
      try {
        await mirrored.seed({ id: 'com.example.hello', slug: 'hello' });
        const body = await jsonOf(await mirrored.api('/plugins/hello/versions/1.0.0/download'));
        expect(body.mirrorUrl).toBe('https://cdn.example.net/api/v1/plugins/hello/versions/1.0.0/package');
      } finally {
        await mirrored.close();
      }
    });
  });

  describe('GET /plugins/<slug>/versions/<version>/package', () => {
    let store: TestRegistry;
    let seeded: SeededPlugin;

    beforeAll(async () => {
      store = await startTestRegistry();
      seeded = await store.seed({ id: 'com.example.hello', slug: 'hello', versions: [{ version: '1.0.0' }, { version: '1.1.0' }] });
    });
    afterAll(() => store.close());

    it('serves the bytes unchanged as application/octet-stream with Content-Length and ETag = sha256, and counts the download', async () => {
      const info = await jsonOf<{ url: string; sha256: string; size: number }>(await store.api('/plugins/hello/versions/1.0.0/download'));
      const response = await fetch(info.url);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/octet-stream');
      expect(response.headers.get('content-length')).toBe(String(info.size));
      expect(response.headers.get('etag')).toBe(`"${info.sha256}"`);
      const bytes = new Uint8Array(await response.arrayBuffer());
      expect(Buffer.from(bytes).equals(Buffer.from(seeded.bytes.get('1.0.0')!))).toBe(true);
      expect(sha256(bytes)).toBe(info.sha256);

      const detail = await jsonOf(await store.api('/plugins/hello', { headers: { 'Cache-Control': 'no-cache' } }));
      expect(detail.downloadsCount).toBe(1);
      await fetch(info.url);
      expect((await store.registry.catalog.getPublishedBySlug('hello'))?.downloadsCount).toBe(2);
    });

    it('serves latest as the latest version', async () => {
      const response = await store.api('/plugins/hello/versions/latest/package');
      expect(response.status).toBe(200);
      expect(response.headers.get('etag')).toBe(`"${seeded.versions[1]!.sha256}"`);
      expect(Buffer.from(await response.arrayBuffer()).equals(Buffer.from(seeded.bytes.get('1.1.0')!))).toBe(true);
    });

    it('answers HEAD and a matching If-None-Match without a body and without counting', async () => {
      const before = (await store.registry.catalog.getPublishedBySlug('hello'))!.downloadsCount;
      const head = await store.api('/plugins/hello/versions/1.0.0/package', { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-length')).toBe(String(seeded.bytes.get('1.0.0')!.length));
      const etag = `"${seeded.versions[0]!.sha256}"`;
      const cached = await store.api('/plugins/hello/versions/1.0.0/package', { headers: { 'If-None-Match': etag } });
      expect(cached.status).toBe(304);
      expect(await cached.text()).toBe('');
      expect((await store.registry.catalog.getPublishedBySlug('hello'))!.downloadsCount).toBe(before);
    });

    it('answers 503 package_unavailable naming the digest when the package file is missing, logs it once per digest, and serves the rest', async () => {
      const logged: string[] = [];
      const record = (message: string): void => {
        logged.push(message);
      };
      const broken = await startTestRegistry({ logger: { info: () => undefined, warn: record, error: record } });
      try {
        const { versions } = await broken.seed({ id: 'com.example.broken', slug: 'broken', versions: [{ version: '1.0.0' }, { version: '1.1.0' }] });
        const healthy = await broken.seed({ id: 'com.example.healthy', slug: 'healthy' });
        const blobs = broken.registry.context.blobs as FileBlobStore;
        for (const version of versions) await rm(blobs.pathOf(version.sha256));
        const [lost, alsoLost] = versions.map((version) => version.sha256);
        // A lost file fails on opening, never in the middle of an answer.
        await expect(blobs.open(lost!)).rejects.toMatchObject({ code: 'ENOENT' });

        for (const path of ['/plugins/broken/versions/1.0.0/package', '/plugins/broken/versions/1.0.0/package', '/plugins/broken/versions/latest/package']) {
          const response = await broken.api(path);
          expect(response.status, path).toBe(503);
          expect(response.headers.get('cache-control')).toBe('no-store');
          const body = await jsonOf<{ error: { code: string; message: string } }>(response);
          expect(body.error.code).toBe('package_unavailable');
          expect(body.error.message).toContain(path.includes('latest') ? alsoLost : lost);
        }
        expect((await broken.api('/plugins/broken/versions/1.0.0/package', { method: 'HEAD' })).status).toBe(503);
        // One line per lost digest, however often it is asked for.
        expect(logged.filter((line) => line.includes(lost!))).toHaveLength(1);
        expect(logged.filter((line) => line.includes(alsoLost!))).toHaveLength(1);
        expect(logged).toHaveLength(2);

        const served = await broken.api('/plugins/healthy/versions/1.0.0/package');
        expect(served.status).toBe(200);
        expect(Buffer.from(await served.arrayBuffer()).equals(Buffer.from(healthy.bytes.get('1.0.0')!))).toBe(true);
        expect((await broken.api('/plugins/broken')).status).toBe(200);
        expect((await broken.api('/plugins/broken/versions/1.0.0/download')).status).toBe(200);
        expect((await broken.api('/registry')).status).toBe(200);
        expect((await broken.registry.catalog.getPublishedBySlug('broken'))?.downloadsCount).toBe(0);
      } finally {
        await broken.close();
      }
    });
  });
});
