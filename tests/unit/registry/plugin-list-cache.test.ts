/**
 * The plugin list's answer cache (catalog/plugin-list-cache.ts): answers are reused while the
 * catalog revision read from the database stands, so every change a list shows is served at once,
 * by the instance that made it and by any other instance on the same database; download counts,
 * which the revision leaves out, are at most the list's 15 s old.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';
import { jsonOf, startTestRegistry, testClock, type TestRegistry } from './registry-support.js';
import { TEST_POOL_SIZE, forEachStore, storeRows } from './store-support.js';

interface ListBody {
  total: number;
  items: { slug: string; name: string; downloadsCount: number; ratingCount: number; latestVersion?: string }[];
}

async function list(registry: TestRegistry, query = ''): Promise<ListBody> {
  const response = await registry.api(`/plugins${query}`);
  expect(response.status).toBe(200);
  return jsonOf<ListBody>(response);
}

const slugsOf = (body: ListBody): string[] => body.items.map((item) => item.slug);

forEachStore(() => {
  describe('GET /plugins answer cache on one instance', () => {
    let store: TestRegistry;

    beforeEach(async () => {
      store = await startTestRegistry();
      await store.seed({ id: 'com.example.first', slug: 'first', name: 'First', tags: ['maps'] });
      await store.seed({ id: 'com.example.second', slug: 'second', name: 'Second', versions: [{ version: '1.0.0' }, { version: '1.1.0' }] });
    });
    afterEach(async () => {
      await store.close();
    });

    it('raises the catalog revision with a change a list shows, and not with a download', async () => {
      const catalog = store.registry.catalog;
      const before = await catalog.catalogRevision();
      await catalog.updatePlugin('com.example.first', { name: 'First, renamed' });
      const renamed = await catalog.catalogRevision();
      expect(renamed).toBeGreaterThan(before);
      const second = await catalog.getPlugin('com.example.second');
      const [version] = await catalog.versionsOf('com.example.second');
      await catalog.incrementDownloads(second?.id ?? '', version?.id ?? '', '2030-03-15');
      expect(await catalog.catalogRevision()).toBe(renamed);
    });

    it('serves a new plugin, a new version, a rename, a review and a withdrawn version at once', async () => {
      const catalog = store.registry.catalog;
      expect(slugsOf(await list(store, '?sort=name'))).toEqual(['first', 'second']);
      // The same query again, also spelled differently: the kept answer.
      expect((await list(store, '?sort=name&page=1')).total).toBe(2);

      await store.seed({ id: 'com.example.third', slug: 'third', name: 'Third' });
      expect(slugsOf(await list(store, '?sort=name'))).toEqual(['first', 'second', 'third']);

      const third = await catalog.getPlugin('com.example.third');
      await catalog.addVersion({
        pluginId: third?.id ?? '',
        version: '2.0.0',
        sha256: 'a'.repeat(64),
        sizeBytes: 10,
        minLauncherVersion: '1.0.0',
        status: 'published',
        createdAt: store.clock.now().toISOString(),
      });
      expect((await list(store, '?sort=name')).items.find((item) => item.slug === 'third')?.latestVersion).toBe('2.0.0');

      await catalog.updatePlugin('com.example.first', { name: 'Alpha first' });
      expect((await list(store, '?sort=name')).items[0]?.name).toBe('Alpha first');

      await catalog.addReview({ pluginId: 'com.example.second', accountId: 'reader', rating: 4, text: 'ok', createdAt: store.clock.now().toISOString() });
      expect((await list(store, '?sort=name')).items.find((item) => item.slug === 'second')?.ratingCount).toBe(1);

      for (const version of await catalog.versionsOf('com.example.first')) {
        await catalog.setVersionStatus(version.id, 'rejected', { at: store.clock.now().toISOString() });
      }
      expect(slugsOf(await list(store, '?sort=name'))).toEqual(['second', 'third']);
      // Searches are kept and validated the same way.
      expect((await list(store, '?q=alpha')).total).toBe(0);
    });

    it('keeps an answer while the revision stands, and download counts at most 15 s', async () => {
      const catalog = store.registry.catalog;
      const first = await list(store, '?q=first');
      expect(first.items[0]?.downloadsCount).toBe(0);
      const [version] = await catalog.versionsOf('com.example.first');
      await catalog.incrementDownloads('com.example.first', version?.id ?? '', '2030-03-15');
      // The download is stored, but the kept answer (same revision, younger than 15 s) is served:
      // this is the cache at work, and the bound its documentation gives.
      const stored = await storeRows<{ downloads_count: number | string }>(store.registry.store, 'SELECT downloads_count FROM plugins WHERE id = ?', [
        'com.example.first',
      ]);
      expect(stored.map((row) => Number(row.downloads_count))).toEqual([1]);
      store.clock.advance(14_000);
      expect((await list(store, '?q=first')).items[0]?.downloadsCount).toBe(0);
      store.clock.advance(1_000);
      expect((await list(store, '?q=first')).items[0]?.downloadsCount).toBe(1);
    });

    it('reuses nothing while the revision row is missing, and a change writes it again', async () => {
      const catalog = store.registry.catalog;
      await storeRows(store.registry.store, 'DELETE FROM catalog_revision');
      expect(await catalog.catalogRevision()).toBe(-1);
      expect((await list(store, '?q=first')).items[0]?.downloadsCount).toBe(0);
      const [version] = await catalog.versionsOf('com.example.first');
      await catalog.incrementDownloads('com.example.first', version?.id ?? '', '2030-03-15');
      // Not covered by the revision, yet served at once: nothing was kept.
      expect((await list(store, '?q=first')).items[0]?.downloadsCount).toBe(1);
      await catalog.updatePlugin('com.example.first', { name: 'First again' });
      expect(await catalog.catalogRevision()).toBeGreaterThan(0);
      expect((await list(store, '?q=first')).items[0]?.name).toBe('First again');
    });

    it('answers a kept list with its entity tag, and 304 to a matching If-None-Match', async () => {
      const response = await store.api('/plugins');
      const etag = response.headers.get('ETag') ?? '';
      expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      const again = await store.api('/plugins');
      expect(again.headers.get('ETag')).toBe(etag);
      expect(await again.text()).toBe(await response.text());
      const conditional = await store.api('/plugins', { headers: { 'If-None-Match': etag } });
      expect(conditional.status).toBe(304);
      expect(conditional.headers.get('Cache-Control')).toBe('public, max-age=15');
    });
  });
});

describe('GET /plugins answer cache with two instances on one PostgreSQL database', () => {
  const clock = testClock();
  let database: TestDatabase;
  let a: TestRegistry;
  let b: TestRegistry;

  beforeAll(async () => {
    database = await createTestDatabase();
    const shared = { databaseUrl: database.url, databasePoolSize: TEST_POOL_SIZE, clock };
    a = await startTestRegistry(shared);
    b = await startTestRegistry(shared);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
  });

  it('serves through one instance, at once, what the other changed', async () => {
    await b.seed({ id: 'com.example.one', slug: 'one', name: 'One' });
    expect(slugsOf(await list(a, '?sort=name'))).toEqual(['one']);
    expect(slugsOf(await list(b, '?sort=name'))).toEqual(['one']);

    await b.seed({ id: 'com.example.two', slug: 'two', name: 'Two' });
    expect(slugsOf(await list(a, '?sort=name'))).toEqual(['one', 'two']);

    await b.registry.catalog.updatePlugin('com.example.two', { name: 'A two' });
    expect((await list(a, '?sort=name')).items.map((item) => item.name)).toEqual(['A two', 'One']);

    await a.registry.catalog.addReview({ pluginId: 'com.example.one', accountId: 'reader', rating: 5, text: '', createdAt: clock.now().toISOString() });
    expect((await list(b, '?sort=name')).items.find((item) => item.slug === 'one')?.ratingCount).toBe(1);

    const [version] = await b.registry.catalog.versionsOf('com.example.one');
    await b.registry.catalog.setVersionStatus(version?.id ?? '', 'rejected', { at: clock.now().toISOString() });
    expect(slugsOf(await list(a, '?sort=name'))).toEqual(['two']);
    expect(await a.registry.catalog.catalogRevision()).toBe(await b.registry.catalog.catalogRevision());
  });
});
