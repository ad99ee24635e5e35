import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import Koa, { type Context } from 'koa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '@plughost/backend-kit';
import { createReviewsRouter, registryErrorHandler, type AuthenticatedAccount } from '@plughost/registry';
import { jsonOf, startTestRegistry, type TestRegistry } from './registry-support.js';
import { forEachStore } from './store-support.js';

forEachStore(() => {
  interface ReviewList {
    total: number;
    page: number;
    pageSize: number;
    ratingAverage?: number;
    ratingCount: number;
    items: Record<string, unknown>[];
  }

  describe('GET /plugins/<slug>/reviews', () => {
    let store: TestRegistry;
    beforeEach(async () => {
      store = await startTestRegistry();
      await store.seed({ id: 'com.example.hello', slug: 'hello' });
    });
    afterEach(() => store.close());

    it('answers an empty list without ratingAverage for a plugin without reviews', async () => {
      const response = await store.api('/plugins/hello/reviews');
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('public, max-age=15');
      expect(await jsonOf(response)).toEqual({ total: 0, page: 1, pageSize: 20, ratingCount: 0, items: [] });
    });

    it('pages reviews newest first with the rating aggregate, and one review per account', async () => {
      const catalog = store.registry.catalog;
      const ratings = [5, 4, 4, 2, 1];
      for (const [index, rating] of ratings.entries()) {
        store.clock.advance(60_000);
        await catalog.addReview({
          pluginId: 'com.example.hello',
          accountId: `account-${index}`,
          authorName: `User ${index}`,
          rating,
          text: `Review ${index}`,
          createdAt: store.clock.now().toISOString(),
        });
      }
      // A second review by the same account replaces its first.
      store.clock.advance(60_000);
      const replaced = await catalog.addReview({
        pluginId: 'com.example.hello',
        accountId: 'account-4',
        rating: 3,
        text: 'Better now',
        createdAt: store.clock.now().toISOString(),
      });
      expect(replaced.created).toBe(false);

      const first = await jsonOf<ReviewList>(await store.api('/plugins/hello/reviews?pageSize=2'));
      expect(first).toMatchObject({ total: 5, page: 1, pageSize: 2, ratingAverage: 3.6, ratingCount: 5 });
      expect(first.items.map((item) => item.text)).toEqual(['Better now', 'Review 3']);
      expect(first.items[1]).toEqual({ rating: 2, text: 'Review 3', author: 'User 3', createdAt: expect.any(String), updatedAt: expect.any(String) });
      expect(first.items[1]).not.toHaveProperty('accountId');
      const third = await jsonOf<ReviewList>(await store.api('/plugins/hello/reviews?pageSize=2&page=3'));
      expect(third.items.map((item) => item.text)).toEqual(['Review 0']);
      // The aggregate shows in the Plugin object too.
      expect(await jsonOf(await store.api('/plugins/hello'))).toMatchObject({ ratingAverage: 3.6, ratingCount: 5 });
    });

    it('refuses bad pagination and unknown plugins', async () => {
      expect((await store.api('/plugins/hello/reviews?pageSize=51')).status).toBe(400);
      expect((await store.api('/plugins/hello/reviews?page=0')).status).toBe(400);
      expect((await store.api('/plugins/nope/reviews')).status).toBe(404);
    });
  });

  describe('POST /plugins/<slug>/reviews', () => {
    let store: TestRegistry | undefined;
    afterEach(async () => {
      await store?.close();
      store = undefined;
    });

    it('answers 401 unauthorized without an authenticated account (no auth module mounted)', async () => {
      store = await startTestRegistry();
      await store.seed({ id: 'com.example.hello', slug: 'hello' });
      const response = await store.api('/plugins/hello/reviews', { json: { rating: 5 }, headers: { Authorization: 'Bearer anything' } });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      expect((await jsonOf<{ error: { code: string } }>(response)).error.code).toBe('unauthorized');
    });
  });

  /** The reviews router alone, over a registry's context, with a test authenticator (what the auth module will provide). */
  async function startReviewsApp(store: TestRegistry): Promise<{ base: string; close(): Promise<void> }> {
    const app = new Koa();
    const api = new Router({ prefix: '/api/v1' });
    // `Authorization: Bearer user:<id>` signs in as <id>.
    const authenticate = async (ctx: Context): Promise<AuthenticatedAccount | null> => {
      const match = /^Bearer user:(.+)$/.exec(ctx.get('Authorization'));
      return match ? { accountId: match[1]!, displayName: `Name of ${match[1]}` } : null;
    };
    const reviews = createReviewsRouter(store.registry.context, store.registry.catalog, { authenticate });
    api.use(reviews.routes(), reviews.allowedMethods());
    app.use(registryErrorHandler(silentLogger));
    app.use(api.routes());
    const server: Server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    return {
      base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  }

  describe('POST /plugins/<slug>/reviews with an authenticated account', () => {
    let store: TestRegistry;
    let app: { base: string; close(): Promise<void> };
    beforeEach(async () => {
      store = await startTestRegistry();
      await store.seed({ id: 'com.example.hello', slug: 'hello', ownerAccountId: 'owner' });
      await store.seed({ id: 'com.example.draft', slug: 'draft', versions: [{ version: '1.0.0', status: 'pending_review' }] });
      app = await startReviewsApp(store);
    });
    afterEach(async () => {
      await app.close();
      await store.close();
    });

    const post = (slug: string, body: unknown, account?: string): Promise<Response> =>
      fetch(`${app.base}/plugins/${slug}/reviews`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(account ? { Authorization: `Bearer user:${account}` } : {}) },
        body: JSON.stringify(body),
      });

    it('creates (201) then replaces (200) the account review, and the aggregate follows', async () => {
      const created = await post('hello', { rating: 4, text: '  Nice  ' }, 'alice');
      expect(created.status).toBe(201);
      expect(await jsonOf(created)).toEqual({ rating: 4, text: 'Nice', author: 'Name of alice', createdAt: expect.any(String), updatedAt: expect.any(String) });
      expect((await post('hello', { rating: 2 }, 'bob')).status).toBe(201);
      const replaced = await post('hello', { rating: 5, text: 'Great after the update' }, 'alice');
      expect(replaced.status).toBe(200);
      const list = await jsonOf<ReviewList>(await store.api('/plugins/hello/reviews'));
      expect(list).toMatchObject({ total: 2, ratingAverage: 3.5, ratingCount: 2 });
    });

    it('refuses anonymous writes, the owner, unpublished plugins and bad bodies', async () => {
      expect((await post('hello', { rating: 4 })).status).toBe(401);
      const owner = await post('hello', { rating: 5 }, 'owner');
      expect(owner.status).toBe(403);
      expect((await jsonOf<{ error: { code: string } }>(owner)).error.code).toBe('forbidden');
      expect((await post('draft', { rating: 4 }, 'alice')).status).toBe(404);
      for (const body of [
        { rating: 0 },
        { rating: 6 },
        { rating: 4.5 },
        { rating: '5' },
        {},
        { rating: 3, text: 7 },
        { rating: 3, text: 'x'.repeat(2001) },
        { rating: 3, title: 'x' },
      ]) {
        const response = await post('hello', body, 'alice');
        expect(response.status).toBe(400);
        expect((await jsonOf<{ error: { code: string } }>(response)).error.code).toBe('invalid_argument');
      }
    });
  });
});
