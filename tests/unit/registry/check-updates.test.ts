import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ReportedErrorType } from '@plughost/registry';
import { jsonOf, startTestRegistry, type TestRegistry } from './registry-support.js';
import { forEachStore } from './store-support.js';

forEachStore(() => {
  interface UpdatesBody {
    updates: Record<string, unknown>[];
  }

  const HOUR = 60 * 60 * 1000;

  describe('POST /plugins/check-updates', () => {
    let store: TestRegistry;

    beforeEach(async () => {
      store = await startTestRegistry();
      await store.seed({
        id: 'com.example.hello',
        slug: 'hello',
        versions: [
          { version: '1.0.0', createdAt: '2030-03-01T00:00:00.000Z' },
          { version: '1.1.0', createdAt: '2030-03-10T00:00:00.000Z', rolloutPercent: 50, changelog: 'Faster greetings' },
          { version: '1.2.0', status: 'pending_review' },
        ],
      });
    });
    afterEach(() => store.close());

    async function check(installed: { slug: string; version: string }[], launcherVersion = '2.0.0'): Promise<UpdatesBody> {
      const response = await store.api('/plugins/check-updates', { json: { launcherVersion, installed } });
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      // The body is pre-serialized text (UpdateItemTexts): still typed as JSON.
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      return jsonOf<UpdatesBody>(response);
    }

    /**
     * Stores one report from each of `count` reporters (`<prefix>-0`, `<prefix>-1`, ...), received
     * `ageMs` before now. The reporter values stand for the daily-salted network hashes the intake
     * writes (telemetry-reporters.test.ts covers the intake itself).
     */
    async function report(pluginId: string, pluginVersion: string, count: number, ageMs = HOUR, prefix = 'network'): Promise<void> {
      const receivedAt = new Date(store.clock.now().getTime() - ageMs).toISOString();
      const errorType: ReportedErrorType = 'plugin_runtime_error';
      for (let i = 0; i < count; i += 1) {
        await store.registry.catalog.addReport({ pluginId, pluginVersion, errorType, launcherVersion: '2.0.0', receivedAt, reporter: `${prefix}-${i}` });
      }
    }

    it('offers the latest published version with every item field and its Download info', async () => {
      const body = await check([{ slug: 'hello', version: '1.0.0' }]);
      const latest = (await store.registry.catalog.latestPublished('hello'))!;
      expect(body).toEqual({
        updates: [
          {
            slug: 'hello',
            currentVersion: '1.0.0',
            latestVersion: '1.1.0',
            rolloutPercent: 50,
            changelog: 'Faster greetings',
            publishedAt: '2030-03-10T00:00:00.000Z',
            download: { url: `${store.base}/plugins/hello/versions/1.1.0/package`, sha256: latest.sha256, size: latest.sizeBytes },
          },
        ],
      });
    });

    it('always carries rolloutPercent, 100 included', async () => {
      await store.seed({ id: 'com.example.full', slug: 'full', versions: [{ version: '1.0.0' }, { version: '2.0.0' }] });
      const { updates } = await check([{ slug: 'full', version: '1.0.0' }]);
      expect(updates[0]).toMatchObject({ slug: 'full', latestVersion: '2.0.0', rolloutPercent: 100 });
    });

    it('offers nothing when the installed version is current or newer, the slug is unknown, or the launcher is too old', async () => {
      expect((await check([{ slug: 'hello', version: '1.1.0' }])).updates).toEqual([]);
      expect((await check([{ slug: 'hello', version: '1.5.0' }])).updates).toEqual([]);
      expect((await check([{ slug: 'not-in-this-store', version: '1.0.0' }])).updates).toEqual([]);
      await store.seed({ id: 'com.example.modern', slug: 'modern', versions: [{ version: '1.0.0' }, { version: '2.0.0', minLauncherVersion: '3.0.0' }] });
      expect((await check([{ slug: 'modern', version: '1.0.0' }], '2.9.9')).updates).toEqual([]);
      expect((await check([{ slug: 'modern', version: '1.0.0' }], '3.0.0')).updates).toHaveLength(1);
    });

    it('answers in the order of installed, one item per plugin with an update', async () => {
      await store.seed({ id: 'com.example.other', slug: 'other', versions: [{ version: '0.1.0' }, { version: '0.2.0' }] });
      const { updates } = await check([
        { slug: 'other', version: '0.1.0' },
        { slug: 'nope', version: '1.0.0' },
        { slug: 'hello', version: '1.0.0-beta.1' },
      ]);
      expect(updates.map((item) => [item.slug, item.currentVersion, item.latestVersion])).toEqual([
        ['other', '0.1.0', '0.2.0'],
        ['hello', '1.0.0-beta.1', '1.1.0'],
      ]);
    });

    describe('automatic rollout pause', () => {
      it('still offers a version with exactly 10 reporters in 24 hours and withholds it at 11', async () => {
        await report('com.example.hello', '1.1.0', 10);
        expect((await check([{ slug: 'hello', version: '1.0.0' }])).updates).toHaveLength(1);
        await report('com.example.hello', '1.1.0', 1, HOUR, 'eleventh');
        expect((await check([{ slug: 'hello', version: '1.0.0' }])).updates).toEqual([]);
      });

      it('counts reporters, not reports', async () => {
        for (let i = 0; i < 5; i += 1) await report('com.example.hello', '1.1.0', 10);
        expect(await store.registry.catalog.countRecentReporters('com.example.hello', '1.1.0', '2000-01-01T00:00:00.000Z')).toBe(10);
        expect((await check([{ slug: 'hello', version: '1.0.0' }])).updates).toHaveLength(1);
      });

      it('does not count reporters older than 24 hours, and lifts the pause as they leave the window', async () => {
        await report('com.example.hello', '1.1.0', 10, 23 * HOUR);
        await report('com.example.hello', '1.1.0', 5, 25 * HOUR, 'old');
        expect((await check([{ slug: 'hello', version: '1.0.0' }])).updates).toHaveLength(1);
        await report('com.example.hello', '1.1.0', 1, 2 * HOUR, 'recent');
        expect((await check([{ slug: 'hello', version: '1.0.0' }])).updates).toEqual([]);
        store.clock.advance(1.5 * HOUR);
        expect((await check([{ slug: 'hello', version: '1.0.0' }])).updates).toHaveLength(1);
      });

      it('ignores reporters of other versions, however close', async () => {
        await report('com.example.hello', '1.1.0', 10);
        for (const version of ['1.0.0', '1.1.0-beta.1', '1.1.0+build.7', '1.1.1']) await report('com.example.hello', version, 11, HOUR, version);
        await report('com.example.other', '1.1.0', 11, HOUR, 'other');
        expect((await check([{ slug: 'hello', version: '1.0.0' }])).updates).toHaveLength(1);
      });

      it('never falls back to an older version when the latest is withheld', async () => {
        const { versions } = await store.seed({
          id: 'com.example.three',
          slug: 'three',
          versions: [{ version: '1.0.0' }, { version: '1.1.0' }, { version: '1.2.0' }],
        });
        await report('com.example.three', '1.2.0', 11);
        expect((await check([{ slug: 'three', version: '1.0.0' }])).updates).toEqual([]);
        // Installed users keep it and the version stays published and downloadable.
        expect((await store.api('/plugins/three/versions/1.2.0/download')).status).toBe(200);
        expect((await jsonOf(await store.api('/plugins/three'))).latestVersion).toBe(versions[2]!.version);
      });

      it('uses the configured threshold', async () => {
        const strict = await startTestRegistry({ pauseThreshold: 0 });
        try {
          await strict.seed({ id: 'com.example.hello', slug: 'hello', versions: [{ version: '1.0.0' }, { version: '1.1.0' }] });
          const body = { launcherVersion: '2.0.0', installed: [{ slug: 'hello', version: '1.0.0' }] };
          expect((await jsonOf<UpdatesBody>(await strict.api('/plugins/check-updates', { json: body }))).updates).toHaveLength(1);
          await strict.registry.catalog.addReport({
            pluginId: 'com.example.hello',
            pluginVersion: '1.1.0',
            errorType: 'launch_crash',
            launcherVersion: '2.0.0',
            receivedAt: strict.clock.now().toISOString(),
            reporter: 'network-0',
          });
          expect((await jsonOf<UpdatesBody>(await strict.api('/plugins/check-updates', { json: body }))).updates).toEqual([]);
        } finally {
          await strict.close();
        }
      });
    });

    it('gives the Download info of the configured public URL and first mirror, the same on a repeated request', async () => {
      const mirrored = await startTestRegistry({ mirrors: ['cdn.example.net', 'cdn2.example.net'], publicUrl: 'https://registry.example.com/api/v1' });
      try {
        await mirrored.seed({ id: 'com.example.hello', slug: 'hello', versions: [{ version: '1.0.0' }, { version: '1.1.0' }] });
        const body = { launcherVersion: '2.0.0', installed: [{ slug: 'hello', version: '1.0.0' }] };
        const first = await jsonOf<UpdatesBody>(await mirrored.api('/plugins/check-updates', { json: body }));
        expect(first.updates[0]?.download).toMatchObject({
          url: 'https://registry.example.com/api/v1/plugins/hello/versions/1.1.0/package',
          mirrorUrl: 'https://cdn.example.net/api/v1/plugins/hello/versions/1.1.0/package',
        });
        const again = await jsonOf<UpdatesBody>(
          await mirrored.api('/plugins/check-updates', { json: { ...body, installed: [{ slug: 'hello', version: '1.0.1' }] } }),
        );
        expect(again.updates).toEqual([{ ...first.updates[0], currentVersion: '1.0.1' }]);
      } finally {
        await mirrored.close();
      }
    });

    it.each([
      [{ installed: [] }, 'launcherVersion'],
      [{ launcherVersion: 'latest', installed: [] }, 'launcherVersion'],
      [{ launcherVersion: '2.0.0' }, 'installed'],
      [{ launcherVersion: '2.0.0', installed: {} }, 'installed'],
      [{ launcherVersion: '2.0.0', installed: ['hello'] }, 'installed[0]'],
      [{ launcherVersion: '2.0.0', installed: [{ slug: '', version: '1.0.0' }] }, 'installed[0].slug'],
      [{ launcherVersion: '2.0.0', installed: [{ slug: 'hello', version: 'one' }] }, 'installed[0].version'],
      [
        {
          launcherVersion: '2.0.0',
          installed: [
            { slug: 'hello', version: '1.0.0' },
            { slug: 'hello', version: '1.0.0' },
          ],
        },
        'more than once',
      ],
      [[], 'JSON object'],
    ])('refuses %j with 400 invalid_argument (%s)', async (body, mentioned) => {
      const response = await store.api('/plugins/check-updates', { json: body });
      expect(response.status).toBe(400);
      const error = (await jsonOf<{ error: { code: string; message: string } }>(response)).error;
      expect(error.code).toBe('invalid_argument');
      expect(error.message).toContain(mentioned);
    });

    it('refuses malformed JSON (400) and other media types (415)', async () => {
      const malformed = await store.api('/plugins/check-updates', {
        method: 'POST',
        body: '{"launcherVersion":',
        headers: { 'Content-Type': 'application/json' },
      });
      expect(malformed.status).toBe(400);
      expect((await jsonOf<{ error: { code: string } }>(malformed)).error.code).toBe('invalid_argument');
      const text = await store.api('/plugins/check-updates', { method: 'POST', body: 'hello', headers: { 'Content-Type': 'text/plain' } });
      expect(text.status).toBe(415);
      expect((await jsonOf<{ error: { code: string } }>(text)).error.code).toBe('unsupported_media_type');
    });
  });
});
