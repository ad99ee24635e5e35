import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf, startTestRegistry, type SeededPlugin, type TestRegistry } from './registry-support.js';
import { forEachStore } from './store-support.js';

forEachStore(() => {
  describe('GET /plugins/<slug>', () => {
    let store: TestRegistry;
    let seeded: SeededPlugin;

    beforeAll(async () => {
      store = await startTestRegistry();
      seeded = await store.seed({
        id: 'com.example.hello',
        slug: 'hello',
        name: 'Hello',
        description: 'Says hello',
        versions: [
          { version: '1.0.0', createdAt: '2030-03-01T00:00:00.000Z', permissions: ['storage'] },
          { version: '1.10.0', createdAt: '2030-03-03T00:00:00.000Z', minLauncherVersion: '1.5.0', permissions: ['storage', 'network:cors_proxy'] },
          { version: '1.2.0', createdAt: '2030-03-02T00:00:00.000Z' },
          { version: '2.0.0-beta.1', createdAt: '2030-03-04T00:00:00.000Z' },
          { version: '2.0.0', status: 'pending_review' },
          { version: '1.9.0', status: 'rejected' },
        ],
      });
      await store.seed({ id: 'com.example.unpublished', slug: 'unpublished', versions: [{ version: '1.0.0', status: 'pending_review' }] });
    });

    afterAll(() => store.close());

    it('answers the Plugin object with its published versions, highest first, and nothing else', async () => {
      const response = await store.api('/plugins/hello');
      expect(response.status).toBe(200);
      const body = await jsonOf<{ versions: Record<string, unknown>[]; latestVersion: string }>(response);
      // The highest release is latest; a published pre-release of a later version is listed but not latest.
      expect(body.latestVersion).toBe('1.10.0');
      expect(body.versions.map((entry) => entry.version)).toEqual(['2.0.0-beta.1', '1.10.0', '1.2.0', '1.0.0']);
      const v110 = seeded.versions[1]!;
      expect(body.versions[1]).toEqual({
        id: v110.id,
        version: '1.10.0',
        sha256: v110.sha256,
        sizeBytes: seeded.bytes.get('1.10.0')!.length,
        changelog: 'Changes of 1.10.0',
        publishedAt: '2030-03-03T00:00:00.000Z',
        minLauncherVersion: '1.5.0',
        permissions: ['storage', 'network:cors_proxy'],
      });
      expect(body).toMatchObject({
        id: 'com.example.hello',
        slug: 'hello',
        name: 'Hello',
        description: 'Says hello',
        tags: [],
        downloadsCount: 0,
        ratingCount: 0,
      });
      expect(body).not.toHaveProperty('category');
      expect(body).not.toHaveProperty('iconUrl');
      expect(body).not.toHaveProperty('ratingAverage');
    });

    it.each(['unpublished', 'unknown', 'com.example.hello', 'HELLO'])('answers 404 not_found for %s', async (slug) => {
      const response = await store.api(`/plugins/${slug}`);
      expect(response.status).toBe(404);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(await jsonOf(response)).toEqual({ error: { code: 'not_found', message: expect.stringContaining(slug) } });
    });
  });
});
