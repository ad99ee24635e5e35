import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_KEY } from './publishing/publishing-support.js';
import { loopbackIn, sendFrom, type ClientResponse } from './client-network-support.js';
import { listInstalled } from './pause-support.js';
import { startTestRegistry, testClock, type TestRegistry } from './registry-support.js';
import { forEachStore, storeRows } from './store-support.js';

forEachStore(() => {
  const HOUR = 60 * 60 * 1000;
  const REPORT = { pluginId: 'com.example.hello', pluginVersion: '1.1.0', errorType: 'plugin_runtime_error', launcherVersion: '2.0.0' };

  interface PausedList {
    threshold: number;
    windowHours: number;
    installedBaseDays: number;
    installedBasePercent: number;
    items: Record<string, unknown>[];
  }

  // Decisions section 6: the automatic pause counts distinct reporter networks, not reports; and
  // (section 12) only networks that listed the version in a check-updates the same UTC day, so each
  // reporting network here lists it first (pause-installed-base.test.ts covers networks that do not).
  describe('automatic rollout pause counts reporter networks', () => {
    let store: TestRegistry;

    beforeEach(async () => {
      // 23:00 UTC, so a test can cross midnight within the pause window.
      store = await startTestRegistry({ adminKey: ADMIN_KEY, clock: testClock('2030-03-15T23:00:00.000Z') });
      await store.seed({ id: 'com.example.hello', slug: 'hello', versions: [{ version: '1.0.0' }, { version: '1.1.0' }] });
    });
    afterEach(() => store.close());

    /** The slug a reporter lists for a reported id: the seeded plugin's (by id or slug), else hello's. */
    function slugOf(reported: string): string {
      const slugs = ['hello', 'other', 'quiet'];
      return slugs.find((slug) => reported === slug || reported === `com.example.${slug}`) ?? 'hello';
    }

    /**
     * One report from the source address `from`, whose network first lists the reported version as
     * installed in a check-updates (the plugin named by `listed`, default the report's own).
     */
    async function reportFrom(from: string, body: Record<string, string> = REPORT, listed = slugOf(body.pluginId!)): Promise<ClientResponse> {
      await listInstalled(store.base, { from }, [{ slug: listed, version: body.pluginVersion! }]);
      const response = await sendFrom(`${store.base}/telemetry/plugin-error`, { json: body, localAddress: from });
      expect(response.status).toBe(202);
      return response;
    }

    /** One report from each of the /24 networks `first` to `first + count - 1`. */
    async function reportFromNetworks(first: number, count: number, body: Record<string, string> = REPORT): Promise<void> {
      for (let network = first; network < first + count; network += 1) await reportFrom(loopbackIn(network), body);
    }

    async function isOffered(): Promise<boolean> {
      const response = await store.api('/plugins/check-updates', { json: { launcherVersion: '2.0.0', installed: [{ slug: 'hello', version: '1.0.0' }] } });
      expect(response.status).toBe(200);
      const { updates } = (await response.json()) as { updates: { latestVersion: string }[] };
      return updates.some((update) => update.latestVersion === '1.1.0');
    }

    function storedReports(): Promise<Record<string, unknown>[]> {
      return storeRows(store.registry.store, 'SELECT * FROM plugin_error_reports');
    }

    it('is not triggered by eleven reports from one address (the attack of issue 11)', async () => {
      for (let i = 0; i < 11; i += 1) await reportFrom('127.0.0.1');
      expect(await isOffered()).toBe(true);
      // Nor by a hundred: the rate limit is not what stops it.
      for (let i = 0; i < 100; i += 1) await reportFrom('127.0.0.1');
      expect(await isOffered()).toBe(true);
    });

    it('counts addresses of one /24 as one reporter', async () => {
      for (let host = 1; host <= 20; host += 1) await reportFrom(loopbackIn(42, host));
      expect(await isOffered()).toBe(true);
    });

    it('still offers a version reported from 10 networks and withholds it at 11', async () => {
      await reportFromNetworks(1, 10);
      expect(await isOffered()).toBe(true);
      await reportFrom(loopbackIn(11));
      expect(await isOffered()).toBe(false);
      // The version stays published and downloadable; only the update offer is withheld.
      expect((await store.api('/plugins/hello/versions/1.1.0/download')).status).toBe(200);
    });

    it('counts reports naming the plugin id or its slug exactly, and no other id', async () => {
      for (const pluginId of ['org.mirror.hello', 'xhello', 'com.example.hello2', 'hello.com']) {
        await reportFromNetworks(1, 11, { ...REPORT, pluginId });
      }
      expect(await isOffered()).toBe(true);
      await reportFromNetworks(1, 6, { ...REPORT, pluginId: 'com.example.hello' });
      await reportFromNetworks(7, 4, { ...REPORT, pluginId: 'hello' });
      expect(await isOffered()).toBe(true);
      // Network 1 reported under both names: still one reporter. Network 11 is the eleventh.
      await reportFrom(loopbackIn(1), { ...REPORT, pluginId: 'hello' });
      expect(await isOffered()).toBe(true);
      await reportFrom(loopbackIn(11), { ...REPORT, pluginId: 'hello' });
      expect(await isOffered()).toBe(false);
    });

    it('answers 202 for an unknown id or version and stores nothing', async () => {
      await store.seed({ id: 'com.example.pending', slug: 'pending', versions: [{ version: '1.0.0', status: 'pending_review' }] });
      for (const body of [
        { ...REPORT, pluginId: 'com.example.unknown' },
        { ...REPORT, pluginId: 'unknown' },
        { ...REPORT, pluginVersion: '9.9.9' },
        { ...REPORT, pluginVersion: '1.1.0-beta.1' },
        { ...REPORT, pluginId: 'com.example.pending', pluginVersion: '1.0.0' },
      ]) {
        expect((await reportFrom('127.0.0.1', body)).json()).toEqual({ accepted: true });
      }
      expect(await storedReports()).toEqual([]);
    });

    it('stores the network only as a hash salted per UTC day, never the address', async () => {
      await reportFrom(loopbackIn(7, 9));
      await reportFrom(loopbackIn(7, 10));
      const rows = await storedReports();
      expect(rows).toHaveLength(2);
      for (const row of rows) {
        for (const value of Object.values(row)) expect(String(value)).not.toMatch(/127\.0\.|::ffff/);
      }
      const [first, second] = rows;
      expect(first!.reporter).toEqual(second!.reporter);
      expect(String(first!.reporter)).toMatch(/^[A-Za-z0-9_-]{22,}$/);

      // The next UTC day, the same network reporting another version is stored under another hash.
      await store.seed({ id: 'com.example.other', slug: 'other', versions: [{ version: '1.0.0' }] });
      store.clock.advance(2 * HOUR);
      await reportFrom(loopbackIn(7, 9), { ...REPORT, pluginId: 'other', pluginVersion: '1.0.0' });
      const other = (await storedReports()).find((row) => row.plugin_id === 'com.example.other');
      expect(other?.reporter).toBeDefined();
      expect(other!.reporter).not.toEqual(first!.reporter);
    });

    it('counts a network once when it reports before and after UTC midnight', async () => {
      await reportFromNetworks(1, 10);
      store.clock.advance(HOUR + 30 * 60 * 1000); // 00:30 the next day, new salt
      await reportFromNetworks(1, 10);
      expect(await isOffered()).toBe(true);
      await reportFrom(loopbackIn(11));
      expect(await isOffered()).toBe(false);
    });

    it('keeps no salt older than the previous UTC day', async () => {
      await reportFrom(loopbackIn(1));
      store.clock.advance(72 * HOUR);
      await reportFrom(loopbackIn(2));
      const days = await storeRows<{ day: string }>(store.registry.store, 'SELECT day FROM telemetry_salts ORDER BY day');
      expect(days.map((row) => row.day).every((day) => day >= '2030-03-18')).toBe(true);
      expect(days.map((row) => row.day)).toContain('2030-03-18');
    });

    it('lifts the pause as reporters leave the 24-hour window', async () => {
      await reportFromNetworks(1, 11);
      expect(await isOffered()).toBe(false);
      store.clock.advance(24 * HOUR + 1);
      expect(await isOffered()).toBe(true);
    });

    describe('GET /admin/paused', () => {
      it('lists paused versions with their reporter and report counts, for the admin key only', async () => {
        await reportFromNetworks(1, 11);
        await reportFrom(loopbackIn(1));
        await store.seed({ id: 'com.example.quiet', slug: 'quiet', versions: [{ version: '2.0.0' }] });
        await reportFromNetworks(1, 3, { ...REPORT, pluginId: 'quiet', pluginVersion: '2.0.0' });

        expect((await store.api('/admin/paused')).status).toBe(403);
        const response = await store.api('/admin/paused', { headers: { Authorization: `Bearer ${ADMIN_KEY}` } });
        expect(response.status).toBe(200);
        expect(response.headers.get('cache-control')).toBe('no-store');
        const hello = (await store.registry.catalog.version('hello', '1.1.0'))!;
        expect((await response.json()) as PausedList).toEqual({
          threshold: 10,
          windowHours: 24,
          installedBaseDays: 7,
          installedBasePercent: 2,
          items: [
            {
              versionId: hello.id,
              pluginId: 'com.example.hello',
              slug: 'hello',
              version: '1.1.0',
              reporters: 11,
              reports: 12,
              lastReportAt: store.clock.now().toISOString(),
              installedBase: 11,
              pauseThreshold: 10,
              paused: true,
              lift: null,
            },
          ],
        });
      });
    });
  });
});
