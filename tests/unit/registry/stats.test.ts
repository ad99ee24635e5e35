import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonOf, startTestRegistry, testClock, type SeededPlugin, type TestRegistry } from './registry-support.js';
import { forEachStore } from './store-support.js';

forEachStore(() => {
  interface StatsBody {
    pluginId: string;
    slug: string;
    downloadsCount: number;
    downloadsPerDay: { date: string; downloads: number }[];
  }

  describe('GET /plugins/<slug>/stats', () => {
    let store: TestRegistry;
    let seeded: SeededPlugin;
    beforeEach(async () => {
      store = await startTestRegistry({ clock: testClock('2030-03-15T08:00:00.000Z') });
      seeded = await store.seed({ id: 'com.example.hello', slug: 'hello', versions: [{ version: '1.0.0' }, { version: '1.1.0' }] });
    });
    afterEach(() => store.close());

    it('answers the total and the last 30 UTC days, oldest first, zeros included', async () => {
      const catalog = store.registry.catalog;
      const [v1, v2] = seeded.versions;
      await catalog.incrementDownloads('com.example.hello', v1!.id, '2030-01-01'); // outside the 30 days
      await catalog.incrementDownloads('com.example.hello', v1!.id, '2030-02-14'); // the first of the 30 days
      await catalog.incrementDownloads('com.example.hello', v1!.id, '2030-03-10');
      await catalog.incrementDownloads('com.example.hello', v2!.id, '2030-03-10');
      // Downloads through the package route count on the clock's day.
      expect((await store.api('/plugins/hello/versions/latest/package')).status).toBe(200);

      const response = await store.api('/plugins/hello/stats');
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('public, max-age=300');
      const body = await jsonOf<StatsBody>(response);
      expect(body.pluginId).toBe('com.example.hello');
      expect(body.slug).toBe('hello');
      expect(body.downloadsCount).toBe(5);
      expect(body.downloadsPerDay).toHaveLength(30);
      expect(body.downloadsPerDay[0]).toEqual({ date: '2030-02-14', downloads: 1 });
      expect(body.downloadsPerDay[29]).toEqual({ date: '2030-03-15', downloads: 1 });
      expect(body.downloadsPerDay.find((day) => day.date === '2030-03-10')).toEqual({ date: '2030-03-10', downloads: 2 });
      expect(body.downloadsPerDay.reduce((sum, day) => sum + day.downloads, 0)).toBe(4);
    });

    it('accepts the plugin id in place of the slug, as the specification writes the route', async () => {
      const body = await jsonOf<StatsBody>(await store.api('/plugins/com.example.hello/stats'));
      expect(body.slug).toBe('hello');
    });

    it('answers 404 for unknown and unpublished plugins', async () => {
      await store.seed({ id: 'com.example.draft', slug: 'draft', versions: [{ version: '1.0.0', status: 'pending_review' }] });
      for (const path of ['/plugins/nope/stats', '/plugins/draft/stats', '/plugins/com.example.draft/stats']) {
        const response = await store.api(path);
        expect(response.status).toBe(404);
        expect((await jsonOf<{ error: { code: string } }>(response)).error.code).toBe('not_found');
      }
    });
  });
});
