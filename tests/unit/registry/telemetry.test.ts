import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonOf, startTestRegistry, testClock, type TestRegistry } from './registry-support.js';
import { forEachStore, storeRows } from './store-support.js';

forEachStore(() => {
  const REPORT = { pluginId: 'com.example.hello', pluginVersion: '1.1.0', errorType: 'plugin_runtime_error', launcherVersion: '2.4.0-beta.1' };

  describe('POST /telemetry/plugin-error', () => {
    let store: TestRegistry | undefined;
    afterEach(async () => {
      await store?.close();
      store = undefined;
    });

    /** The launcher's check-updates listing hello 1.1.0: its network runs it, so its reports are kept (decisions section 12). */
    async function runHello(): Promise<void> {
      const listed = await store!.api('/plugins/check-updates', { json: { launcherVersion: '2.4.0', installed: [{ slug: 'hello', version: '1.1.0' }] } });
      expect(listed.status).toBe(200);
    }

    it('stores exactly the four fields, the time received and the reporter hash, answering 202', async () => {
      store = await startTestRegistry();
      await store.seed({ id: 'com.example.hello', slug: 'hello', versions: [{ version: '1.1.0' }] });
      await runHello();
      const response = await store.api('/telemetry/plugin-error', { json: REPORT });
      expect(response.status).toBe(202);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(await jsonOf(response)).toEqual({ accepted: true });
      const rows = await storeRows(store.registry.store, 'SELECT * FROM plugin_error_reports');
      expect(rows).toEqual([
        {
          id: 1,
          plugin_id: 'com.example.hello',
          plugin_version: '1.1.0',
          reporter: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
          error_type: 'plugin_runtime_error',
          launcher_version: '2.4.0-beta.1',
          received_at: store.clock.now().toISOString(),
        },
      ]);
    });

    it('accepts a slug as the reported id and stores the report under the plugin id', async () => {
      store = await startTestRegistry();
      await store.seed({ id: 'com.example.hello', slug: 'hello', versions: [{ version: '1.1.0' }] });
      await runHello();
      expect((await store.api('/telemetry/plugin-error', { json: { ...REPORT, pluginId: 'hello' } })).status).toBe(202);
      expect(await storeRows(store.registry.store, 'SELECT plugin_id FROM plugin_error_reports')).toEqual([{ plugin_id: 'com.example.hello' }]);
    });

    it.each([
      [{ ...REPORT, stack: 'at x' }, 'stack'],
      [{ ...REPORT, pluginId: '' }, 'pluginId'],
      [{ ...REPORT, pluginVersion: '' }, 'pluginVersion'],
      [{ ...REPORT, errorType: '' }, 'errorType'],
      [{ ...REPORT, launcherVersion: '' }, 'launcherVersion'],
      [{ pluginId: 'com.example.hello', pluginVersion: '1.1.0', errorType: 'launch_crash' }, 'launcherVersion'],
      [{ ...REPORT, errorType: 'segfault' }, 'errorType'],
      [{ ...REPORT, pluginVersion: '1.1' }, 'pluginVersion'],
      [{ ...REPORT, pluginId: '/home/user/plugins/x' }, 'pluginId'],
      [{ ...REPORT, pluginId: 42 }, 'pluginId'],
      [{ ...REPORT, launcherVersion: '2.0.0 (Windows 11; user bob)' }, 'launcherVersion'],
    ])('refuses %j with 400 invalid_argument naming %s, storing nothing', async (body, field) => {
      store = await startTestRegistry();
      const response = await store.api('/telemetry/plugin-error', { json: body });
      expect(response.status).toBe(400);
      const error = (await jsonOf<{ error: { code: string; message: string } }>(response)).error;
      expect(error.code).toBe('invalid_argument');
      expect(error.message).toContain(field);
      expect(await storeRows(store.registry.store, 'SELECT COUNT(*) AS n FROM plugin_error_reports')).toEqual([{ n: 0 }]);
    });

    it('limits each client address to 120 reports a minute with 429 rate_limited and Retry-After', async () => {
      store = await startTestRegistry();
      for (let i = 0; i < 120; i += 1) expect((await store.api('/telemetry/plugin-error', { json: REPORT })).status).toBe(202);
      const limited = await store.api('/telemetry/plugin-error', { json: REPORT });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await jsonOf<{ error: { code: string } }>(limited)).error.code).toBe('rate_limited');
      store.clock.advance(60_000);
      expect((await store.api('/telemetry/plugin-error', { json: REPORT })).status).toBe(202);
    });

    it('takes a configured limit', async () => {
      store = await startTestRegistry({ telemetryRateLimit: { limit: 2, windowMs: 1000 } });
      expect((await store.api('/telemetry/plugin-error', { json: REPORT })).status).toBe(202);
      expect((await store.api('/telemetry/plugin-error', { json: REPORT })).status).toBe(202);
      expect((await store.api('/telemetry/plugin-error', { json: REPORT })).status).toBe(429);
    });

    it('deletes reports older than 48 hours and salts older than the previous day when it starts', async () => {
      const clock = testClock('2030-03-15T12:00:00.000Z');
      const dataDirectory = await mkdtemp(join(tmpdir(), 'registry-data-'));
      store = await startTestRegistry({ clock, dataDirectory });
      const catalog = store.registry.catalog;
      const at = (hoursAgo: number): string => new Date(clock.now().getTime() - hoursAgo * 3_600_000).toISOString();
      for (const hoursAgo of [1, 30, 47, 49, 100]) {
        await catalog.addReport({
          pluginId: 'com.example.hello',
          pluginVersion: '1.0.0',
          errorType: 'launch_crash',
          launcherVersion: '1.0.0',
          receivedAt: at(hoursAgo),
          reporter: 'r',
        });
      }
      for (const day of ['2030-03-12', '2030-03-13', '2030-03-14', '2030-03-15']) {
        await storeRows(store.registry.store, 'INSERT INTO telemetry_salts (day, salt) VALUES (?, ?)', [day, Buffer.alloc(32, 1)]);
      }
      await store.close();
      // Reopen the same data folder: the purge on start keeps the 1, 30 and 47 hour old reports.
      store = await startTestRegistry({ clock, dataDirectory });
      try {
        expect(await storeRows(store.registry.store, 'SELECT received_at FROM plugin_error_reports ORDER BY received_at DESC')).toEqual([
          { received_at: at(1) },
          { received_at: at(30) },
          { received_at: at(47) },
        ]);
        expect(await storeRows(store.registry.store, 'SELECT day FROM telemetry_salts ORDER BY day')).toEqual([{ day: '2030-03-14' }, { day: '2030-03-15' }]);
      } finally {
        await store.close();
        store = undefined;
        await rm(dataDirectory, { recursive: true, force: true });
      }
    });
  });
});
