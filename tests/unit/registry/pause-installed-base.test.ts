// Issue 26, weakness 4 ("pausing someone else's update"): reports from 11 /24 networks withheld
// any version from every launcher, a brand-new one included. Decisions section 12: a report counts
// only when its network listed that id@version installed in a check-updates on the same UTC day,
// and a version is paused when its counted reporters exceed max(threshold, 2 % of its installed base).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loopbackIn } from './client-network-support.js';
import { listInstalled, runAndReport, sendReport } from './pause-support.js';
import { startTestRegistry, testClock, type TestRegistry } from './registry-support.js';
import { forEachStore, storeRows } from './store-support.js';

forEachStore(() => {
  const HOUR = 60 * 60 * 1000;
  const REPORT = { pluginId: 'com.example.hello', pluginVersion: '1.1.0', errorType: 'launch_crash', launcherVersion: '2.0.0' };

  describe('automatic rollout pause counts only networks that run the version', () => {
    let store: TestRegistry;

    beforeEach(async () => {
      store = await startTestRegistry({ clock: testClock('2030-03-15T12:00:00.000Z') });
      await store.seed({ id: 'com.example.hello', slug: 'hello', versions: [{ version: '1.0.0' }, { version: '1.1.0' }] });
    });
    afterEach(() => store.close());

    /** Whether a launcher on 1.0.0 is offered 1.1.0 (asked from 127.0.0.1, which never reports). */
    async function isOffered(): Promise<boolean> {
      const response = await store.api('/plugins/check-updates', { json: { launcherVersion: '2.0.0', installed: [{ slug: 'hello', version: '1.0.0' }] } });
      expect(response.status).toBe(200);
      return ((await response.json()) as { updates: { latestVersion: string }[] }).updates.some((update) => update.latestVersion === '1.1.0');
    }

    function storedReports(): Promise<Record<string, unknown>[]> {
      return storeRows(store.registry.store, 'SELECT * FROM plugin_error_reports');
    }

    it('pauses nothing when 11 networks that never listed the version report it, also a brand-new version', async () => {
      // Cloud hosts that never ran 1.1.0 (nobody has: it was just published).
      for (let network = 1; network <= 11; network += 1) await sendReport(store.base, { from: loopbackIn(network) }, REPORT);
      expect(await isOffered()).toBe(true);
      // Launchers that run the previous version, not this one, prove nothing about it either.
      for (let network = 12; network <= 22; network += 1) {
        await listInstalled(store.base, { from: loopbackIn(network) }, [{ slug: 'hello', version: '1.0.0' }]);
        await sendReport(store.base, { from: loopbackIn(network) }, REPORT);
      }
      expect(await isOffered()).toBe(true);
      expect(await storedReports()).toEqual([]);
    });

    it('does not count a listing of another UTC day', async () => {
      for (let network = 1; network <= 11; network += 1) await listInstalled(store.base, { from: loopbackIn(network) }, [{ slug: 'hello', version: '1.1.0' }]);
      store.clock.advance(12 * HOUR); // 00:00 the next day: a new salt, a new day of listings
      for (let network = 1; network <= 11; network += 1) await sendReport(store.base, { from: loopbackIn(network) }, REPORT);
      expect(await isOffered()).toBe(true);
    });

    it('with 1,000 networks running the version, 11 reporting networks pause nothing and 21 pause it', async () => {
      const day = store.clock.now().toISOString().slice(0, 10);
      // 979 networks that ran 1.1.0 today, recorded as check-updates records them; the 21 that
      // report below list it over HTTP, from their own /24: 1,000 in all, 2 % of which is 20.
      const seeded = Array.from({ length: 979 }, (_, n) => `seeded-network-${n}`);
      for (let n = 0; n < seeded.length; n += 100) {
        await Promise.all(
          seeded
            .slice(n, n + 100)
            .map((network) => store.registry.catalog.recordInstalls({ day, network, versions: [{ pluginId: 'com.example.hello', version: '1.1.0' }] })),
        );
      }
      for (let network = 1; network <= 11; network += 1) await runAndReport(store.base, { from: loopbackIn(network) }, 'hello', REPORT);
      expect(await isOffered()).toBe(true);
      for (let network = 12; network <= 20; network += 1) await runAndReport(store.base, { from: loopbackIn(network) }, 'hello', REPORT);
      expect(await isOffered()).toBe(true);
      await runAndReport(store.base, { from: loopbackIn(21) }, 'hello', REPORT);
      expect(await isOffered()).toBe(false);
    });
  });
});
