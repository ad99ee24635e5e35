import { afterEach, describe, expect, it } from 'vitest';
import { loopbackIn, sendFrom } from './client-network-support.js';
import { startTestRegistry, type TestRegistry } from './registry-support.js';
import { forEachStore } from './store-support.js';

forEachStore(() => {
  const REPORT = { pluginId: 'com.example.hello', pluginVersion: '1.1.0', errorType: 'launch_crash', launcherVersion: '2.0.0' };
  const STRONG_PASSWORD = 'correct horse battery';

  // Decisions section 6: X-Forwarded-For counts only from REGISTRY_TRUSTED_PROXIES, and it feeds
  // every use of the client address (rate limits, login throttling, reporter networks).
  describe('the client address', () => {
    let store: TestRegistry | undefined;
    afterEach(async () => {
      await store?.close();
      store = undefined;
    });

    async function start(options: Parameters<typeof startTestRegistry>[0] = {}): Promise<TestRegistry> {
      store = await startTestRegistry({ telemetryRateLimit: { limit: 2, windowMs: 60_000 }, ...options });
      await store.seed({ id: 'com.example.hello', slug: 'hello', versions: [{ version: '1.0.0' }, { version: '1.1.0' }] });
      return store;
    }

    /** The status of one report sent from `from` with `forwardedFor` as its X-Forwarded-For. */
    async function reportStatus(forwardedFor: string | undefined, from = '127.0.0.1'): Promise<number> {
      const headers: Record<string, string> = forwardedFor === undefined ? {} : { 'X-Forwarded-For': forwardedFor };
      return (await sendFrom(`${store!.base}/telemetry/plugin-error`, { json: REPORT, headers, localAddress: from })).status;
    }

    /** A check-updates listing hello 1.1.0 with `forwardedFor` as its X-Forwarded-For: that network runs it (decisions section 12). */
    async function listStatus(forwardedFor: string | undefined, from = '127.0.0.1'): Promise<number> {
      const headers: Record<string, string> = forwardedFor === undefined ? {} : { 'X-Forwarded-For': forwardedFor };
      const json = { launcherVersion: '2.0.0', installed: [{ slug: 'hello', version: '1.1.0' }] };
      return (await sendFrom(`${store!.base}/plugins/check-updates`, { json, headers, localAddress: from })).status;
    }

    async function isOffered(): Promise<boolean> {
      const response = await store!.api('/plugins/check-updates', { json: { launcherVersion: '2.0.0', installed: [{ slug: 'hello', version: '1.0.0' }] } });
      return ((await response.json()) as { updates: unknown[] }).updates.length === 1;
    }

    describe('from a peer that is not a trusted proxy', () => {
      it('ignores a forged X-Forwarded-For for rate limits', async () => {
        await start();
        expect(await reportStatus('203.0.113.1')).toBe(202);
        expect(await reportStatus('203.0.113.2')).toBe(202);
        expect(await reportStatus('203.0.113.3')).toBe(429);
      });

      it('ignores a forged X-Forwarded-For for reporter networks', async () => {
        await start({ telemetryRateLimit: { limit: 100, windowMs: 60_000 } });
        for (let network = 1; network <= 11; network += 1) {
          expect(await listStatus(`198.51.${network}.7`)).toBe(200);
          expect(await reportStatus(`198.51.${network}.7`)).toBe(202);
        }
        expect(await isOffered()).toBe(true);
      });

      it('is not trusted by being on loopback: only the listed proxies are', async () => {
        await start({ trustedProxies: ['127.0.9.0/24'] });
        expect(await reportStatus('203.0.113.1', '127.0.0.1')).toBe(202);
        expect(await reportStatus('203.0.113.2', '127.0.0.1')).toBe(202);
        expect(await reportStatus('203.0.113.3', '127.0.0.1')).toBe(429);
        // The same forged values from the listed network are believed.
        expect(await reportStatus('203.0.113.3', loopbackIn(9))).toBe(202);
      });
    });

    describe('from a trusted proxy', () => {
      it('uses the client X-Forwarded-For names', async () => {
        await start({ trustedProxies: ['127.0.0.1'] });
        expect(await reportStatus('203.0.113.7')).toBe(202);
        expect(await reportStatus('203.0.113.7')).toBe(202);
        expect(await reportStatus('203.0.113.7')).toBe(429);
        expect(await reportStatus('198.51.100.7')).toBe(202);
        // A request without the header is the proxy's own.
        expect(await reportStatus(undefined)).toBe(202);
      });

      it('takes the right-most untrusted address, so what a client prepends changes nothing', async () => {
        await start({ trustedProxies: ['127.0.0.1', '10.0.0.0/8'] });
        expect(await reportStatus('192.0.2.1, 203.0.113.7, 10.1.2.3')).toBe(202);
        expect(await reportStatus('192.0.2.2, 203.0.113.7')).toBe(202);
        expect(await reportStatus('203.0.113.7,10.9.9.9')).toBe(429);
        expect(await reportStatus('203.0.113.8')).toBe(202);
      });

      it('falls back to the nearest trusted hop when an entry is not an address', async () => {
        await start({ trustedProxies: ['127.0.0.1'] });
        expect(await reportStatus('203.0.113.7, not-an-address')).toBe(202);
        expect(await reportStatus('203.0.113.8, unknown')).toBe(202);
        // Both counted against the proxy itself.
        expect(await reportStatus(undefined)).toBe(429);
      });

      it('feeds the reporter networks of the automatic pause', async () => {
        await start({ trustedProxies: ['::1', '127.0.0.1'], telemetryRateLimit: { limit: 100, windowMs: 60_000 } });
        for (let network = 1; network <= 10; network += 1) {
          expect(await listStatus(`198.51.${network}.7`)).toBe(200);
          expect(await reportStatus(`198.51.${network}.7`)).toBe(202);
        }
        expect(await isOffered()).toBe(true);
        // A network that did not list the version does not count; once it has, it does.
        expect(await reportStatus('2001:db8:1:2::7')).toBe(202);
        expect(await isOffered()).toBe(true);
        expect(await listStatus('2001:db8:1:9::8')).toBe(200);
        expect(await reportStatus('2001:db8:1:2::7')).toBe(202);
        expect(await isOffered()).toBe(false);
      });
    });

    it('refuses trusted proxies that are neither addresses nor CIDRs', async () => {
      await expect(startTestRegistry({ trustedProxies: ['proxy.example.com'] })).rejects.toThrow(
        /trustedProxies \(REGISTRY_TRUSTED_PROXIES\).*proxy\.example\.com/,
      );
      await expect(startTestRegistry({ trustedProxies: ['10.0.0.0/33'] })).rejects.toThrow(/trustedProxies/);
    });

    describe('login throttling', () => {
      async function login(username: string, password: string, from: string, forwardedFor?: string): Promise<number> {
        const headers: Record<string, string> = forwardedFor === undefined ? {} : { 'X-Forwarded-For': forwardedFor };
        return (await sendFrom(`${store!.base}/auth/login`, { json: { username, password }, headers, localAddress: from })).status;
      }

      async function startWithOwner(options: Parameters<typeof startTestRegistry>[0] = {}): Promise<void> {
        store = await startTestRegistry(options);
        const registered = await sendFrom(`${store.base}/auth/register`, {
          json: { username: 'owner', password: STRONG_PASSWORD },
          localAddress: loopbackIn(200),
        });
        expect(registered.status).toBe(201);
      }

      it('never locks the owner out from another address, however many wrong passwords one address sends', async () => {
        await startWithOwner();
        const attacker = loopbackIn(2);
        for (let attempt = 0; attempt < 10; attempt += 1) expect(await login('owner', `wrong guess ${attempt}`, attacker)).toBe(401);
        expect(await login('owner', STRONG_PASSWORD, attacker)).toBe(429);
        expect(await login('owner', STRONG_PASSWORD, loopbackIn(3))).toBe(200);
      });

      it('limits one address across usernames', async () => {
        await startWithOwner();
        const attacker = loopbackIn(2);
        for (let attempt = 0; attempt < 10; attempt += 1) expect(await login(`guess${attempt}`, 'some password!', attacker)).toBe(401);
        expect(await login('owner', STRONG_PASSWORD, attacker)).toBe(429);
        expect(await login('owner', STRONG_PASSWORD, loopbackIn(3))).toBe(200);
      });

      it('tells clients of a trusted proxy apart by X-Forwarded-For', async () => {
        await startWithOwner({ trustedProxies: ['127.0.0.1'] });
        for (let attempt = 0; attempt < 10; attempt += 1) expect(await login('owner', `wrong guess ${attempt}`, '127.0.0.1', '203.0.113.66')).toBe(401);
        expect(await login('owner', STRONG_PASSWORD, '127.0.0.1', '203.0.113.66')).toBe(429);
        expect(await login('owner', STRONG_PASSWORD, '127.0.0.1', '198.51.100.20')).toBe(200);
      });
    });
  });
});
