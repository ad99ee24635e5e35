import { afterEach, describe, expect, it } from 'vitest';
import { testKeys } from '../../support/plugin-package.js';
import { jsonOf, startTestRegistry, type TestRegistry } from './registry-support.js';
import { forEachStore } from './store-support.js';

forEachStore(() => {
  describe('GET /registry', () => {
    let store: TestRegistry | undefined;
    afterEach(async () => {
      await store?.close();
      store = undefined;
    });

    it('answers the protocol version, the API root, the real number of published plugins and the capabilities it serves', async () => {
      store = await startTestRegistry();
      await store.seed({ id: 'com.example.one', slug: 'one' });
      await store.seed({ id: 'com.example.two', slug: 'two', versions: [{ version: '1.0.0' }, { version: '2.0.0', status: 'pending_review' }] });
      await store.seed({ id: 'com.example.pending', slug: 'pending', versions: [{ version: '1.0.0', status: 'pending_review' }] });
      await store.seed({ id: 'com.example.rejected', slug: 'rejected', versions: [{ version: '1.0.0', status: 'rejected' }] });

      const response = await store.api('/registry');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await jsonOf(response)).toEqual({
        apiVersion: '1.0',
        baseUrl: store.base,
        pluginCount: 2,
        capabilities: ['list', 'detail', 'download', 'check-updates', 'reviews', 'auth', 'stats'],
        // The root that certifies developer keys, pinned by pluginctl (decisions 10).
        rootPublicKey: testKeys().rootPublicKey,
      });
    });

    it('declares auth with the accounts module mounted, and every capability it declares answers', async () => {
      store = await startTestRegistry();
      const { capabilities } = await jsonOf<{ capabilities: string[] }>(await store.api('/registry'));
      expect(capabilities).toContain('auth');
      expect((await store.api('/auth/device/code', { method: 'POST' })).status).toBe(200);
      await store.seed({ id: 'com.example.one', slug: 'one' });
      expect((await store.api('/plugins')).status).toBe(200);
      expect((await store.api('/plugins/one')).status).toBe(200);
      expect((await store.api('/plugins/one/versions/latest/download')).status).toBe(200);
      expect((await store.api('/plugins/check-updates', { json: { launcherVersion: '1.0.0', installed: [] } })).status).toBe(200);
      expect((await store.api('/plugins/one/reviews')).status).toBe(200);
      expect((await store.api('/plugins/one/stats')).status).toBe(200);
    });

    it('uses the configured publicUrl and announces mirrors', async () => {
      store = await startTestRegistry({ publicUrl: 'https://store.example.com/api/v1/', mirrors: ['cdn.example.net'] });
      const body = await jsonOf(await store.api('/registry'));
      expect(body.baseUrl).toBe('https://store.example.com/api/v1');
      expect(body.mirrors).toEqual(['cdn.example.net']);
    });

    it('still takes the deprecated baseUrl option as the public URL', async () => {
      store = await startTestRegistry({ baseUrl: 'https://old.example.com/api/v1' });
      expect((await jsonOf(await store.api('/registry'))).baseUrl).toBe('https://old.example.com/api/v1');
    });

    it('counts a plugin once it has a published version', async () => {
      store = await startTestRegistry();
      const { versions } = await store.seed({ id: 'com.example.late', slug: 'late', versions: [{ version: '1.0.0', status: 'pending_review' }] });
      expect((await jsonOf(await store.api('/registry'))).pluginCount).toBe(0);
      await store.registry.catalog.setVersionStatus(versions[0]!.id, 'published', { at: store.clock.now().toISOString() });
      expect((await jsonOf(await store.api('/registry'))).pluginCount).toBe(1);
    });
  });
});
