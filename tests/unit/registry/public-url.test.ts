import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '@plughost/backend-kit';
import { createRegistry } from '@plughost/registry';
import { loopbackIn, sendFrom } from './client-network-support.js';
import { startTestRegistry, TEST_ROOT_PRIVATE_KEY, type TestRegistry } from './registry-support.js';
import { forEachStore } from './store-support.js';

forEachStore(() => {
  const EVIL = { Host: 'evil.example', 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'https' };

  interface DeviceCode {
    verification_uri: string;
    verification_uri_complete: string;
  }

  // Decisions section 6: absolute URLs come from REGISTRY_PUBLIC_URL (or the bound address), never
  // from the request's Host header.
  describe('absolute URLs the registry writes', () => {
    let store: TestRegistry | undefined;
    afterEach(async () => {
      await store?.close();
      store = undefined;
    });

    async function urlsSeenWith(headers: Record<string, string>, from?: string): Promise<string[]> {
      const target = store!;
      const send = (path: string, json?: unknown) =>
        sendFrom(`${target.base}${path}`, { headers, ...(json !== undefined ? { json } : {}), ...(from ? { localAddress: from } : {}) });
      const metadata = await send('/registry');
      expect(metadata.status).toBe(200);
      const device = await send('/auth/device/code', {});
      expect(device.status).toBe(200);
      const download = await send('/plugins/hello/versions/1.1.0/download');
      expect(download.status).toBe(200);
      const updates = await send('/plugins/check-updates', { launcherVersion: '2.0.0', installed: [{ slug: 'hello', version: '1.0.0' }] });
      expect(updates.status).toBe(200);
      const { verification_uri, verification_uri_complete } = device.json<DeviceCode>();
      return [
        metadata.json<{ baseUrl: string }>().baseUrl,
        verification_uri,
        verification_uri_complete,
        download.json<{ url: string }>().url,
        updates.json<{ updates: { download: { url: string } }[] }>().updates[0]!.download.url,
      ];
    }

    async function seedHello(): Promise<void> {
      await store!.seed({ id: 'com.example.hello', slug: 'hello', versions: [{ version: '1.0.0' }, { version: '1.1.0' }] });
    }

    it('ignores a forged Host header: the default is the bound address and port (port 0 resolved)', async () => {
      store = await startTestRegistry();
      await seedHello();
      const urls = await urlsSeenWith(EVIL);
      expect(urls).toEqual([
        store.base,
        `${store.base}/device`,
        expect.stringMatching(new RegExp(`^${store.base}/device\\?user_code=[A-Z]{4}-[A-Z]{4}$`)),
        `${store.base}/plugins/hello/versions/1.1.0/package`,
        `${store.base}/plugins/hello/versions/1.1.0/package`,
      ]);
      expect(store.base).not.toMatch(/:0\//);
    });

    it('keeps GET /registry publicly cacheable, the same answer whatever the Host', async () => {
      store = await startTestRegistry();
      const honest = await sendFrom(`${store.base}/registry`);
      const forged = await sendFrom(`${store.base}/registry`, { headers: EVIL });
      expect(forged.headers['cache-control']).toBe('public, max-age=60');
      expect(forged.text).toBe(honest.text);
      expect(forged.headers.etag).toBe(honest.headers.etag);
    });

    it('uses the configured publicUrl everywhere, whatever the Host, also from a trusted proxy', async () => {
      store = await startTestRegistry({ publicUrl: 'https://store.example.com/api/v1/', trustedProxies: ['127.0.0.0/8'] });
      await seedHello();
      const urls = await urlsSeenWith(EVIL, loopbackIn(3));
      expect(urls).toEqual([
        'https://store.example.com/api/v1',
        'https://store.example.com/api/v1/device',
        expect.stringMatching(/^https:\/\/store\.example\.com\/api\/v1\/device\?user_code=[A-Z]{4}-[A-Z]{4}$/),
        'https://store.example.com/api/v1/plugins/hello/versions/1.1.0/package',
        'https://store.example.com/api/v1/plugins/hello/versions/1.1.0/package',
      ]);
    });

    describe('createRegistry', () => {
      let folder: string | undefined;
      afterEach(async () => {
        if (folder) await rm(folder, { recursive: true, force: true });
        folder = undefined;
      });

      async function attempt(options: Record<string, unknown>): Promise<unknown> {
        folder = await mkdtemp(join(tmpdir(), 'registry-public-url-'));
        const registry = await createRegistry({ dataDirectory: join(folder, 'data'), rootPrivateKey: TEST_ROOT_PRIVATE_KEY, logger: silentLogger, ...options });
        await registry.close();
        return registry;
      }

      it.each([
        ['store.example.com', /publicUrl \(REGISTRY_PUBLIC_URL\).*http/],
        ['ftp://store.example.com/api/v1', /publicUrl \(REGISTRY_PUBLIC_URL\)/],
        ['https://user:secret@store.example.com/api/v1', /credentials/],
        ['https://store.example.com/api/v1?x=1', /query/],
        ['https://store.example.com/api/v1#top', /fragment/],
      ])('refuses the public URL %j', async (publicUrl, message) => {
        await expect(attempt({ publicUrl })).rejects.toThrow(message);
      });

      it.each(['0.0.0.0', '::', '192.0.2.10', 'store.example.com'])('refuses to serve on the non-loopback host %j without a public URL', async (host) => {
        await expect(attempt({ host })).rejects.toThrow(/REGISTRY_PUBLIC_URL.*required/);
      });

      it.each(['127.0.0.1', '127.8.9.10', '::1', 'localhost'])('needs no public URL on the loopback host %j', async (host) => {
        await expect(attempt({ host })).resolves.toBeDefined();
      });

      it('accepts a non-loopback host with a public URL', async () => {
        await expect(attempt({ host: '0.0.0.0', publicUrl: 'https://store.example.com/api/v1' })).resolves.toBeDefined();
      });
    });
  });
});
