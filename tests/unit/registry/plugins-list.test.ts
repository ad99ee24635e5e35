import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf, startTestRegistry, type TestRegistry } from './registry-support.js';
import { forEachStore } from './store-support.js';

forEachStore(() => {
  interface ListBody {
    total: number;
    page: number;
    pageSize: number;
    items: Record<string, unknown>[];
  }

  describe('GET /plugins', () => {
    let store: TestRegistry;
    const slugsOf = (body: ListBody): unknown[] => body.items.map((item) => item.slug);
    const list = async (query: string): Promise<ListBody> => {
      const response = await store.api(`/plugins${query}`);
      expect(response.status).toBe(200);
      return jsonOf<ListBody>(response);
    };

    beforeAll(async () => {
      store = await startTestRegistry();
      const day = (n: number): string => `2030-03-${String(n).padStart(2, '0')}T10:00:00.000Z`;
      await store.seed({
        id: 'com.example.map-tools',
        slug: 'map-tools',
        name: 'Map Tools',
        description: 'Draws maps of your worlds',
        category: 'utilities',
        tags: ['Maps', 'world'],
        iconUrl: 'https://cdn.example.com/map.png',
        createdAt: day(1),
        versions: [
          { version: '1.0.0', createdAt: day(2) },
          { version: '1.2.0', createdAt: day(5), minLauncherVersion: '2.0.0' },
        ],
      });
      await store.seed({
        id: 'com.example.shaders',
        slug: 'shaders',
        name: 'Shader Pack Manager',
        description: 'Manage shader packs',
        category: 'graphics',
        tags: ['shaders', 'world'],
        createdAt: day(3),
        versions: [{ version: '0.9.0', createdAt: day(4) }],
      });
      await store.seed({
        id: 'com.example.backup',
        slug: 'backup',
        name: 'auto backup',
        description: 'Backs up 100% of saves_folder',
        category: 'utilities',
        tags: ['backup'],
        createdAt: day(6),
        versions: [
          { version: '2.0.0', createdAt: day(7) },
          { version: '3.0.0', status: 'pending_review', createdAt: day(8), minLauncherVersion: '9.0.0' },
        ],
      });
      await store.seed({ id: 'com.example.hidden', slug: 'hidden', name: 'Hidden Map', versions: [{ version: '1.0.0', status: 'pending_review' }] });
      await store.seed({ id: 'com.example.gone', slug: 'gone', name: 'Gone Map', versions: [{ version: '1.0.0', status: 'rejected' }] });
      // Downloads and ratings for the sort orders.
      const catalog = store.registry.catalog;
      const mapVersion = (await catalog.latestPublished('map-tools'))!;
      const backupVersion = (await catalog.latestPublished('backup'))!;
      for (let i = 0; i < 3; i += 1) await catalog.incrementDownloads('com.example.map-tools', mapVersion.id, '2030-03-10');
      await catalog.incrementDownloads('com.example.backup', backupVersion.id, '2030-03-10');
      const at = store.clock.now().toISOString();
      await catalog.addReview({ pluginId: 'com.example.shaders', accountId: 'a', rating: 5, text: '', createdAt: at });
      await catalog.addReview({ pluginId: 'com.example.backup', accountId: 'a', rating: 4, text: '', createdAt: at });
      await catalog.addReview({ pluginId: 'com.example.backup', accountId: 'b', rating: 3, text: '', createdAt: at });
    });

    afterAll(() => store.close());

    it('lists published plugins only, with the Plugin object of the specification', async () => {
      const body = await list('');
      expect(body.total).toBe(3);
      expect(body.page).toBe(1);
      expect(body.pageSize).toBe(20);
      expect(slugsOf(body).sort()).toEqual(['backup', 'map-tools', 'shaders']);
      expect(body.items.find((item) => item.slug === 'map-tools')).toEqual({
        id: 'com.example.map-tools',
        slug: 'map-tools',
        name: 'Map Tools',
        description: 'Draws maps of your worlds',
        category: 'utilities',
        tags: ['maps', 'world'],
        iconUrl: 'https://cdn.example.com/map.png',
        latestVersion: '1.2.0',
        downloadsCount: 3,
        ratingCount: 0,
        createdAt: '2030-03-01T10:00:00.000Z',
      });
      // The pending 3.0.0 of backup is invisible: its latest is 2.0.0.
      expect(body.items.find((item) => item.slug === 'backup')).toMatchObject({ latestVersion: '2.0.0', ratingAverage: 3.5, ratingCount: 2 });
    });

    it('searches name, description, slug and tags with q, case-insensitively and literally', async () => {
      expect(slugsOf(await list('?q=MAP'))).toEqual(['map-tools']);
      expect(slugsOf(await list('?q=shader%20packs'))).toEqual(['shaders']);
      expect(slugsOf(await list('?q=backu'))).toEqual(['backup']);
      expect(slugsOf(await list('?q=world&sort=name'))).toEqual(['map-tools', 'shaders']);
      expect(slugsOf(await list('?q=100%25'))).toEqual(['backup']);
      expect(slugsOf(await list('?q=%25'))).toEqual(['backup']);
      expect(slugsOf(await list('?q=up_100'))).toEqual([]);
      expect(slugsOf(await list('?q=saves_folder'))).toEqual(['backup']);
      expect((await list('?q=nothing-like-this')).total).toBe(0);
    });

    it('filters by category and by tags, all of which must match', async () => {
      expect(slugsOf(await list('?category=utilities&sort=name'))).toEqual(['backup', 'map-tools']);
      expect(slugsOf(await list('?category=Graphics'))).toEqual(['shaders']);
      expect(slugsOf(await list('?tags=world&sort=name'))).toEqual(['map-tools', 'shaders']);
      expect(slugsOf(await list('?tags=world,maps'))).toEqual(['map-tools']);
      expect(slugsOf(await list('?tags=world,%20MAPS'))).toEqual(['map-tools']);
      expect(slugsOf(await list('?tags=world,backup'))).toEqual([]);
      expect(slugsOf(await list('?tags=wor'))).toEqual([]);
    });

    it('keeps plugins whose latest version runs on minLauncherVersion', async () => {
      expect(slugsOf(await list('?minLauncherVersion=1.5.0&sort=name'))).toEqual(['backup', 'shaders']);
      expect(slugsOf(await list('?minLauncherVersion=2.0.0&sort=name'))).toEqual(['backup', 'map-tools', 'shaders']);
      expect(slugsOf(await list('?minLauncherVersion=2.0.0-beta.1&sort=name'))).toEqual(['backup', 'shaders']);
      expect(slugsOf(await list('?minLauncherVersion=10.0.0&sort=name'))).toEqual(['backup', 'map-tools', 'shaders']);
    });

    it('sorts by downloads, rating, updated, name and newest', async () => {
      expect(slugsOf(await list(''))).toEqual(['map-tools', 'backup', 'shaders']);
      expect(slugsOf(await list('?sort=downloads'))).toEqual(['map-tools', 'backup', 'shaders']);
      expect(slugsOf(await list('?sort=rating'))).toEqual(['shaders', 'backup', 'map-tools']);
      expect(slugsOf(await list('?sort=updated'))).toEqual(['backup', 'map-tools', 'shaders']);
      expect(slugsOf(await list('?sort=name'))).toEqual(['backup', 'map-tools', 'shaders']);
      expect(slugsOf(await list('?sort=newest'))).toEqual(['backup', 'shaders', 'map-tools']);
    });

    it('paginates from page 1 with pageSize up to 50; a page past the end is empty', async () => {
      const first = await list('?sort=name&pageSize=2');
      expect(first).toMatchObject({ total: 3, page: 1, pageSize: 2 });
      expect(slugsOf(first)).toEqual(['backup', 'map-tools']);
      const second = await list('?sort=name&pageSize=2&page=2');
      expect(second).toMatchObject({ total: 3, page: 2, pageSize: 2 });
      expect(slugsOf(second)).toEqual(['shaders']);
      expect(await list('?page=9&pageSize=50')).toEqual({ total: 3, page: 9, pageSize: 50, items: [] });
    });

    it.each([
      ['page=0', 'page'],
      ['page=-1', 'page'],
      ['page=1.5', 'page'],
      ['page=1000000001', 'page'],
      ['page=abc', 'page'],
      ['pageSize=51', 'pageSize'],
      ['pageSize=0', 'pageSize'],
      ['pageSize=', 'pageSize'],
      ['page=1&page=2', 'page'],
      ['sort=popular', 'sort'],
      ['minLauncherVersion=v1.0.0', 'minLauncherVersion'],
      ['minLauncherVersion=1.0', 'minLauncherVersion'],
    ])('refuses %s with 400 invalid_argument naming %s', async (query, name) => {
      const response = await store.api(`/plugins?${query}`);
      expect(response.status).toBe(400);
      const body = await jsonOf<{ error: { code: string; message: string } }>(response);
      expect(body.error.code).toBe('invalid_argument');
      expect(body.error.message).toContain(name);
    });
  });
});
