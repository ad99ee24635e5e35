// The catalog methods behind one check-updates (issue 18): the latest versions of many slugs in one
// query, and the pause decisions of many candidates from `plugin_version_reporters`, the
// per-reporter summary that triggers keep beside the reports. The summary must always give the
// answer the raw reports give: these tests compare both after every kind of write.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CATALOG_MIGRATIONS,
  CATALOG_MODULE,
  RegistryDatabase,
  SqliteCatalogRepository,
  findUpdates,
  versionOrder,
  type CatalogRepository,
  type NewVersion,
  type RegistryStore,
} from '@plughost/registry';
import { LatestVersionCache } from '../../../registry/src/updates/latest-version-cache.js';
import { forEachStore, openTestStore, storeRows, type TestStore } from './store-support.js';

const AT = '2030-03-15T12:00:00.000Z';
const HOUR = 3_600_000;
const at = (hoursAfter: number): string => new Date(Date.parse(AT) + hoursAfter * HOUR).toISOString();

function version(pluginId: string, value: string, overrides: Partial<NewVersion> = {}): NewVersion {
  return { pluginId, version: value, sha256: 'a'.repeat(64), sizeBytes: 10, minLauncherVersion: '1.0.0', status: 'published', createdAt: AT, ...overrides };
}

/** The pause count as the raw reports give it: what the summary must always equal. */
async function rawReporters(store: RegistryStore, pluginId: string, pluginVersion: string, since: string): Promise<number> {
  const [row] = await storeRows<{ n: number }>(
    store,
    'SELECT COUNT(DISTINCT reporter) AS n FROM plugin_error_reports WHERE plugin_id = ? AND plugin_version = ? AND received_at >= ?',
    [pluginId, pluginVersion, since],
  );
  return Number(row?.n ?? 0);
}

forEachStore(() => {
  describe('catalog methods of check-updates', () => {
    let opened: TestStore;
    let store: RegistryStore;
    let catalog: CatalogRepository;

    beforeEach(async () => {
      opened = await openTestStore();
      store = opened.store;
      catalog = store.catalog;
      for (const [id, slug] of [
        ['com.example.hello', 'hello'],
        ['com.example.beta', 'beta-only'],
        ['com.example.pending', 'pending-only'],
      ] as const) {
        await catalog.createPlugin({ id, slug, ownerAccountId: 'owner', name: slug, createdAt: AT });
      }
    });
    afterEach(() => opened.close());

    const report = (pluginVersion: string, reporter: string, receivedAt: string, previousReporter?: string): Promise<void> =>
      catalog.addReport({
        pluginId: 'com.example.hello',
        pluginVersion,
        errorType: 'launch_crash',
        launcherVersion: '2.0.0',
        receivedAt,
        reporter,
        ...(previousReporter ? { previousReporter } : {}),
      });

    it('latestPublishedOf answers what latestPublished answers, for every slug in one call', async () => {
      await catalog.addVersion(version('com.example.hello', '1.0.0'));
      await catalog.addVersion(version('com.example.hello', '1.10.0'));
      await catalog.addVersion(version('com.example.hello', '1.9.0'));
      await catalog.addVersion(version('com.example.hello', '2.0.0-rc.1'));
      await catalog.addVersion(version('com.example.hello', '3.0.0', { status: 'pending_review' }));
      await catalog.addVersion(version('com.example.beta', '0.1.0-beta.2'));
      await catalog.addVersion(version('com.example.beta', '0.1.0-beta.10'));
      await catalog.addVersion(version('com.example.pending', '1.0.0', { status: 'rejected' }));
      const slugs = ['hello', 'beta-only', 'pending-only', 'unknown'];
      const latest = await catalog.latestPublishedOf(slugs);
      expect([...latest.keys()].sort()).toEqual(['beta-only', 'hello']);
      expect(latest.get('hello')?.version).toBe('1.10.0');
      expect(latest.get('beta-only')?.version).toBe('0.1.0-beta.10');
      for (const slug of slugs) {
        const ranked = latest.get(slug);
        if (ranked === undefined) {
          expect(await catalog.latestPublished(slug)).toBeNull();
          continue;
        }
        const { versionKey, minLauncherKey, ...plain } = ranked;
        expect(plain).toEqual(await catalog.latestPublished(slug));
        expect(versionKey).toBe(versionOrder(ranked.version).key);
        expect(minLauncherKey).toBe(versionOrder(ranked.minLauncherVersion).key);
      }
      expect((await catalog.latestPublishedOf([])).size).toBe(0);
    });

    it('findUpdates compares versions by precedence: pre-releases, build metadata, the launcher version', async () => {
      await catalog.addVersion(version('com.example.hello', '1.1.0', { minLauncherVersion: '3.0.0' }));
      await catalog.addVersion(version('com.example.beta', '0.1.0-beta.10'));
      const offered = async (installed: { slug: string; version: string }[], launcherVersion: string): Promise<string[]> =>
        (await findUpdates(catalog, { launcherVersion, installed }, { pauseThreshold: 10, now: new Date(AT) })).map(
          (update) => `${update.slug}@${update.currentVersion}->${update.version.version}`,
        );
      expect(await offered([{ slug: 'hello', version: '1.1.0-rc.1' }], '3.0.0')).toEqual(['hello@1.1.0-rc.1->1.1.0']);
      expect(await offered([{ slug: 'hello', version: '1.1.0+local.build' }], '3.0.0')).toEqual([]);
      expect(await offered([{ slug: 'hello', version: '1.0.10' }], '3.0.0-beta.1')).toEqual([]);
      expect(await offered([{ slug: 'hello', version: '1.0.10' }], '3.0.0+vendor')).toEqual(['hello@1.0.10->1.1.0']);
      expect(await offered([{ slug: 'hello', version: '1.0.10' }], '10.0.0')).toEqual(['hello@1.0.10->1.1.0']);
      expect(
        await offered(
          [
            { slug: 'beta-only', version: '0.1.0-beta.9' },
            { slug: 'pending-only', version: '0.0.1' },
            { slug: 'hello', version: '0.9.0' },
          ],
          '3.0.0',
        ),
      ).toEqual(['beta-only@0.1.0-beta.9->0.1.0-beta.10', 'hello@0.9.0->1.1.0']);
    });

    it('LatestVersionCache serves from memory while the catalog revision stands, and sees every change at once', async () => {
      const lookups: string[][] = [];
      const counted = {
        catalogRevision: () => catalog.catalogRevision(),
        latestPublishedOf: (slugs: readonly string[]) => {
          lookups.push([...slugs]);
          return catalog.latestPublishedOf(slugs);
        },
      } as unknown as CatalogRepository;
      const cache = new LatestVersionCache(counted, 3);
      const latestOf = async (slugs: string[]): Promise<Record<string, string>> =>
        Object.fromEntries([...(await cache.latestPublishedOf(slugs))].map(([slug, found]) => [slug, `${found.version}/${found.rolloutPercent}`]));
      const first = await catalog.addVersion(version('com.example.hello', '1.0.0'));
      expect(await latestOf(['hello', 'unknown'])).toEqual({ hello: '1.0.0/100' });
      expect(await latestOf(['hello', 'unknown'])).toEqual({ hello: '1.0.0/100' });
      expect(lookups).toEqual([['hello', 'unknown']]);
      // Every kind of change raises the revision: a new version, a rollout, a status, a new plugin.
      const second = await catalog.addVersion(version('com.example.hello', '1.1.0'));
      expect(await latestOf(['hello'])).toEqual({ hello: '1.1.0/100' });
      await catalog.setRolloutPercent(second.id, 30);
      expect(await latestOf(['hello'])).toEqual({ hello: '1.1.0/30' });
      await catalog.setVersionStatus(second.id, 'rejected', { at: AT });
      expect(await latestOf(['hello'])).toEqual({ hello: '1.0.0/100' });
      await catalog.createPlugin({ id: 'com.example.late', slug: 'late', ownerAccountId: 'owner', name: 'late', createdAt: AT });
      await catalog.addVersion(version('com.example.late', '0.1.0'));
      expect(await latestOf(['unknown', 'late', 'hello'])).toEqual({ late: '0.1.0/100', hello: '1.0.0/100' });
      // Past its bound (3 slugs here) it starts empty again and still answers right.
      expect(await latestOf(['beta-only', 'pending-only', 'late', 'hello'])).toEqual({ late: '0.1.0/100', hello: '1.0.0/100' });
      expect(await latestOf(['hello'])).toEqual({ hello: '1.0.0/100' });
      expect(first.version).toBe('1.0.0');
    });

    it('recentReportersReach says whether at least N reporters reported each candidate since a time', async () => {
      for (const reporter of ['a', 'b', 'c', 'a', 'a']) await report('1.0.0', reporter, at(0));
      await report('1.0.0', 'old', at(-30));
      await report('1.0.1', 'd', at(0));
      const candidates = [
        { pluginId: 'com.example.hello', version: '1.0.0' },
        { pluginId: 'com.example.hello', version: '1.0.1' },
        { pluginId: 'com.example.hello', version: '1.0.2' },
        { pluginId: 'com.example.other', version: '1.0.0' },
      ];
      expect(await catalog.recentReportersReach(candidates, at(-24), 3)).toEqual([true, false, false, false]);
      expect(await catalog.recentReportersReach(candidates, at(-24), 4)).toEqual([false, false, false, false]);
      expect(await catalog.recentReportersReach(candidates, at(-48), 4)).toEqual([true, false, false, false]);
      expect(await catalog.recentReportersReach(candidates, at(-24), 1)).toEqual([true, true, false, false]);
      expect(await catalog.recentReportersReach(candidates, at(1), 1)).toEqual([false, false, false, false]);
      // A threshold of 0 pauses on one reporter: at least 1; "at least 0" holds for everything.
      expect(await catalog.recentReportersReach(candidates, at(-24), 0)).toEqual([true, true, true, true]);
      expect(await catalog.recentReportersReach([], at(-24), 3)).toEqual([]);
    });

    it('recentReportersReachWithRevision answers recentReportersReach and the catalog revision of the same read', async () => {
      await catalog.addVersion(version('com.example.hello', '1.0.0'));
      for (const reporter of ['a', 'b', 'c']) await report('1.0.0', reporter, at(0));
      await report('1.0.1', 'd', at(0));
      const candidates = [
        { pluginId: 'com.example.hello', version: '1.0.0' },
        { pluginId: 'com.example.hello', version: '1.0.1' },
        { pluginId: 'com.example.other', version: '1.0.0' },
      ];
      const revision = await catalog.catalogRevision();
      for (const atLeast of [0, 1, 3, 4]) {
        expect(await catalog.recentReportersReachWithRevision(candidates, at(-24), atLeast)).toEqual({
          revision,
          reached: await catalog.recentReportersReach(candidates, at(-24), atLeast),
        });
      }
      expect(await catalog.recentReportersReachWithRevision([], at(-24), 3)).toEqual({ revision, reached: [] });
      // Reports are not catalog changes; a version is.
      await catalog.addVersion(version('com.example.hello', '1.1.0'));
      const raised = await catalog.catalogRevision();
      expect(raised).toBeGreaterThan(revision);
      expect((await catalog.recentReportersReachWithRevision(candidates, at(-24), 3)).revision).toBe(raised);
    });

    it('findUpdates with kept versions: one read while the revision stands, every change seen at once', async () => {
      const calls: string[] = [];
      const counted = new Proxy(catalog, {
        get(target, name, receiver) {
          const value = Reflect.get(target, name, receiver) as unknown;
          if (typeof value !== 'function') return value;
          return (...args: unknown[]) => {
            calls.push(String(name));
            return (value as (...parameters: unknown[]) => unknown).apply(target, args);
          };
        },
      });
      const cache = new LatestVersionCache(counted);
      const request = { launcherVersion: '2.0.0', installed: [{ slug: 'hello', version: '0.9.0' }] };
      const offered = async (): Promise<string[]> => {
        calls.length = 0;
        return (await findUpdates(counted, request, { pauseThreshold: 2, now: new Date(AT), latestVersions: cache })).map(
          (update) => `${update.version.version}/${update.version.rolloutPercent}`,
        );
      };
      const first = await catalog.addVersion(version('com.example.hello', '1.0.0'));
      expect(await offered()).toEqual(['1.0.0/100']);
      expect(calls).toEqual(['catalogRevision', 'latestPublishedOf', 'recentReportersReach']);
      expect(await offered()).toEqual(['1.0.0/100']);
      expect(calls).toEqual(['recentReportersReachWithRevision']);
      // Pause decisions are read on every request, also from kept versions.
      for (const reporter of ['a', 'b', 'c']) await report('1.0.0', reporter, at(0));
      expect(await offered()).toEqual([]);
      expect(calls).toEqual(['recentReportersReachWithRevision']);
      // A catalog change through anything else is seen by the next request, never the kept version.
      const second = await catalog.addVersion(version('com.example.hello', '1.1.0'));
      expect(await offered()).toEqual(['1.1.0/100']);
      expect(calls).toEqual(['recentReportersReachWithRevision', 'catalogRevision', 'latestPublishedOf', 'recentReportersReach']);
      await catalog.setRolloutPercent(second.id, 30);
      expect(await offered()).toEqual(['1.1.0/30']);
      await catalog.setVersionStatus(second.id, 'rejected', { at: AT });
      expect(await offered()).toEqual([]);
      await catalog.setVersionStatus(first.id, 'rejected', { at: AT });
      expect(await offered()).toEqual([]);
      expect(await offered()).toEqual([]);
      expect(calls).toEqual(['recentReportersReachWithRevision']);
    });

    it('keeps the pause count equal to the raw reports through inserts, re-keying, direct inserts and purges', async () => {
      const sinces = [at(-48), at(-30), at(-24), at(-12), at(-1), at(0), at(1)];
      const check = async (): Promise<void> => {
        for (const pluginVersion of ['1.0.0', '1.0.1']) {
          for (const since of sinces) {
            const raw = await rawReporters(store, 'com.example.hello', pluginVersion, since);
            expect(await catalog.countRecentReporters('com.example.hello', pluginVersion, since), `${pluginVersion} since ${since}`).toBe(raw);
            const reached = await catalog.recentReportersReach([{ pluginId: 'com.example.hello', version: pluginVersion }], since, raw);
            expect(reached).toEqual([true]);
            expect(await catalog.recentReportersReach([{ pluginId: 'com.example.hello', version: pluginVersion }], since, raw + 1)).toEqual([false]);
          }
        }
      };
      // Yesterday's hash of one network, reporting over two days, some reports out of order.
      await report('1.0.0', 'yesterday', at(-40));
      await report('1.0.0', 'yesterday', at(-20));
      await report('1.0.0', 'yesterday', at(-2));
      await report('1.0.0', 'yesterday', at(-6));
      await report('1.0.1', 'yesterday', at(-3));
      await report('1.0.0', 'other', at(-10));
      await check();
      // Its first report under today's hash re-keys its reports of the last 24 hours of that version
      // only: the one of 40 hours ago keeps the old hash, 1.0.1 is untouched.
      await report('1.0.0', 'today', at(0), 'yesterday');
      await check();
      expect(await catalog.countRecentReporters('com.example.hello', '1.0.0', at(-24))).toBe(2);
      expect(await catalog.countRecentReporters('com.example.hello', '1.0.0', at(-48))).toBe(3);
      // A re-keying that moves every report of the old hash removes it from the count.
      await report('1.0.1', 'today', at(0), 'yesterday');
      await check();
      expect(await catalog.countRecentReporters('com.example.hello', '1.0.1', at(-48))).toBe(1);
      // Rows written straight into the table (a copy, an operator's fix) count too.
      await storeRows(
        store,
        `INSERT INTO plugin_error_reports (plugin_id, plugin_version, reporter, error_type, launcher_version, received_at) VALUES (?, ?, ?, 'launch_crash', '2.0.0', ?)`,
        ['com.example.hello', '1.0.1', 'copied', at(-5)],
      );
      await check();
      // The purge takes reporters whose every report went, and keeps those with a later one.
      expect(await catalog.purgeReportsBefore(at(-15))).toBe(2);
      await check();
      expect(await storeRows(store, 'SELECT reporter FROM plugin_version_reporters WHERE plugin_version = ? ORDER BY reporter', ['1.0.0'])).toEqual([
        { reporter: 'other' },
        { reporter: 'today' },
      ]);
      expect(await catalog.purgeReportsBefore(at(2))).toBe(7);
      await check();
      expect(await storeRows(store, 'SELECT reporter FROM plugin_version_reporters')).toEqual([]);
    });
  });
});

describe('upgrading a SQLite store to 004-update-checks', () => {
  it('fills the per-reporter summary from the reports already stored', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'registry-upgrade-'));
    const database = new RegistryDatabase(join(folder, 'registry.db'));
    try {
      const before = CATALOG_MIGRATIONS.findIndex((migration) => migration.id === '004-update-checks');
      database.migrate(CATALOG_MODULE, CATALOG_MIGRATIONS.slice(0, before));
      const insert = database.db.prepare(
        `INSERT INTO plugin_error_reports (plugin_id, plugin_version, reporter, error_type, launcher_version, received_at) VALUES ('x.hello', '1.0.0', ?, 'launch_crash', '1.0.0', ?)`,
      );
      for (const [reporter, receivedAt] of [
        ['a', at(-30)],
        ['a', at(-1)],
        ['b', at(-30)],
        ['c', at(-2)],
      ] as const)
        insert.run(reporter, receivedAt);
      const catalog = new SqliteCatalogRepository(database);
      expect(await catalog.countRecentReporters('x.hello', '1.0.0', at(-24))).toBe(2);
      expect(await catalog.countRecentReporters('x.hello', '1.0.0', at(-48))).toBe(3);
      expect(await catalog.recentReportersReach([{ pluginId: 'x.hello', version: '1.0.0' }], at(-24), 3)).toEqual([false]);
    } finally {
      database.close();
      await rm(folder, { recursive: true, force: true });
    }
  });
});
