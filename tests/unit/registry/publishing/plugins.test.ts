import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPublishingServer, type ErrorBody, type PublishingServer } from './publishing-support.js';
import { forEachStore } from '../store-support.js';

forEachStore(() => {
  interface PluginBody {
    id: string;
    slug: string;
    name: string;
    description: string;
    category?: string;
    tags: string[];
    iconUrl?: string;
    createdAt: string;
    downloadsCount: number;
    versions: unknown[];
  }

  describe('POST /plugins', () => {
    let server: PublishingServer;
    beforeAll(async () => {
      server = await startPublishingServer();
    });
    afterAll(() => server.close());

    it('creates a record owned by the caller, the slug derived from the id', async () => {
      const response = await server.request('/plugins', {
        as: 'alice',
        json: {
          id: 'com.example.map_tools',
          name: ' Map tools ',
          description: 'Maps.',
          category: 'utilities',
          tags: ['Maps', 'maps', 'tools'],
          iconUrl: 'https://cdn.example/icon.png',
        },
      });
      expect(response.status).toBe(201);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(await response.json()).toEqual({
        id: 'com.example.map_tools',
        slug: 'map-tools',
        name: 'Map tools',
        description: 'Maps.',
        category: 'utilities',
        tags: ['maps', 'tools'],
        iconUrl: 'https://cdn.example/icon.png',
        createdAt: server.clock.now().toISOString(),
        downloadsCount: 0,
        versions: [],
      });
      const stored = await server.catalog.getPlugin('com.example.map_tools');
      expect(stored?.ownerAccountId).toBe(await server.accountId('alice'));
    });

    it('is idempotent for the owner and refuses another account with 403 plugin_id_taken', async () => {
      const created = await server.request('/plugins', { as: 'alice', json: { id: 'com.example.twice', slug: 'twice-over', name: 'Twice' } });
      expect(created.status).toBe(201);
      const again = await server.request('/plugins', { as: 'alice', json: { id: 'com.example.twice', name: 'Twice, renamed' } });
      expect(again.status).toBe(200);
      expect((await again.json()) as PluginBody).toMatchObject({ slug: 'twice-over', name: 'Twice' });

      const changedSlug = await server.request('/plugins', { as: 'alice', json: { id: 'com.example.twice', slug: 'other', name: 'Twice' } });
      expect(changedSlug.status).toBe(400);

      const stolen = await server.request('/plugins', { as: 'bob', json: { id: 'com.example.twice', slug: 'bobs-twice', name: 'Mine now' } });
      expect(stolen.status).toBe(403);
      expect(((await stolen.json()) as ErrorBody).error.code).toBe('plugin_id_taken');
    });

    it('answers 409 slug_taken for a slug another plugin has', async () => {
      await server.request('/plugins', { as: 'alice', json: { id: 'com.example.weather', name: 'Weather' } });
      const response = await server.request('/plugins', { as: 'bob', json: { id: 'org.other.weather', name: 'Other weather' } });
      expect(response.status).toBe(409);
      expect(((await response.json()) as ErrorBody).error.code).toBe('slug_taken');
      const withSlug = await server.request('/plugins', { as: 'bob', json: { id: 'org.other.weather', slug: 'other-weather', name: 'Other weather' } });
      expect(withSlug.status).toBe(201);
    });

    it('refuses invalid input with 400 invalid_argument', async () => {
      const bodies: Record<string, unknown>[] = [
        { id: 'Hello', name: 'x' },
        { id: 'com.example.nameless' },
        { id: 'com.example.bad', name: 'Bad', slug: 'Not A Slug' },
        { id: 'com.example.mine', name: 'Reserved' },
        { id: 'com.example.bad', name: 'Bad', slug: 'mine' },
        { id: 'com.example.bad', name: 'Bad', tags: 'one,two' },
        { id: 'com.example.bad', name: 'Bad', iconUrl: 'http://cdn.example/icon.png' },
        { id: 'com.example.bad', name: 'Bad', colour: 'blue' },
        { id: 'com.example.bad', name: 'x'.repeat(101) },
      ];
      for (const json of bodies) {
        const response = await server.request('/plugins', { as: 'alice', json });
        expect(response.status, JSON.stringify(json)).toBe(400);
        expect(((await response.json()) as ErrorBody).error.code).toBe('invalid_argument');
      }
      expect(await server.catalog.getPlugin('com.example.bad')).toBeNull();
    });

    it('needs a signed-in account', async () => {
      const response = await server.request('/plugins', { json: { id: 'com.example.anon', name: 'Anonymous' } });
      expect(response.status).toBe(401);
      const wrong = await server.request('/plugins', { token: 'not-a-key', json: { id: 'com.example.anon', name: 'Anonymous' } });
      expect(wrong.status).toBe(401);
      expect(wrong.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    });
  });

  describe('GET /plugins/mine', () => {
    let server: PublishingServer;
    beforeAll(async () => {
      server = await startPublishingServer();
      await server.request('/plugins', { as: 'alice', json: { id: 'com.example.beta', name: 'Beta' } });
      await server.request('/plugins', { as: 'alice', json: { id: 'com.example.alpha', name: 'Alpha' } });
      await server.request('/plugins', { as: 'bob', json: { id: 'org.bob.gamma', name: 'Gamma' } });
    });
    afterAll(() => server.close());

    it("lists the caller's plugins only, by slug, never cached", async () => {
      const response = await server.request('/plugins/mine', { as: 'alice' });
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const body = (await response.json()) as { items: PluginBody[] };
      expect(body.items.map((plugin) => [plugin.id, plugin.slug, plugin.versions])).toEqual([
        ['com.example.alpha', 'alpha', []],
        ['com.example.beta', 'beta', []],
      ]);
      const carol = (await (await server.request('/plugins/mine', { as: 'carol' })).json()) as { items: unknown[] };
      expect(carol.items).toEqual([]);
    });

    it('needs a signed-in account (and is not the catalog detail of a plugin "mine")', async () => {
      const response = await server.request('/plugins/mine');
      expect(response.status).toBe(401);
    });
  });
});
