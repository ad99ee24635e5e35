// The catalog methods behind one check-updates (issue 18): the latest versions of many slugs in one
// query, and the pause decisions of many candidates from `plugin_version_reporters`, the
// per-reporter summary that triggers keep beside the reports, with the installed base and lifts of
// decisions section 12. The summary must always give the answer the raw reports give: these tests
// compare both after every kind of write.
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
  isPausedState,
  versionOrder,
  type CatalogRepository,
  type NewVersion,
  type PauseRule,
  type RegistryStore,
} from '@plughost/registry';
import { LatestVersionCache } from '../../../registry/src/updates/latest-version-cache.js';
import { forEachStore, openTestStore, storeRows, type TestStore } from './store-support.js';

const AT = '2030-03-15T12:00:00.000Z';
const HOUR = 3_600_000;
const at = (hoursAfter: number): string => new Date(Date.parse(AT) + hoursAfter * HOUR).toISOString();
/** The pause rule at AT with `threshold`, counting reporters since `since` and the installed base of the 7 days to AT. */
const ruleOf = (threshold: number, since = at(-24)): PauseRule => ({ since, threshold, baseFromDay: '2030-03-09', basePercent: 2 });

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

    it('rolloutPauses pauses a candidate with more reporters than the threshold, 2 % of its installed base and twice its lift', async () => {
      for (const reporter of ['a', 'b', 'c', 'a', 'a']) await report('1.0.0', reporter, at(0));
      await report('1.0.0', 'old', at(-30));
      await report('1.0.1', 'd', at(0));
      const candidates = [
        { pluginId: 'com.example.hello', version: '1.0.0' },
        { pluginId: 'com.example.hello', version: '1.0.1' },
        { pluginId: 'com.example.hello', version: '1.0.2' },
        { pluginId: 'com.example.other', version: '1.0.0' },
      ];
      expect(await catalog.rolloutPauses(candidates, ruleOf(2))).toEqual([true, false, false, false]);
      expect(await catalog.rolloutPauses(candidates, ruleOf(3))).toEqual([false, false, false, false]);
      expect(await catalog.rolloutPauses(candidates, ruleOf(3, at(-48)))).toEqual([true, false, false, false]);
      expect(await catalog.rolloutPauses(candidates, ruleOf(0))).toEqual([true, true, false, false]);
      expect(await catalog.rolloutPauses(candidates, ruleOf(0, at(1)))).toEqual([false, false, false, false]);
      expect(await catalog.rolloutPauses([], ruleOf(2))).toEqual([]);

      // An installed base of 150 networks (its largest day of the 7) allows 3 reporters: 2 % of 150.
      const hello = { pluginId: 'com.example.hello', version: '1.0.0' };
      const recordOn = (day: string, networks: number): Promise<unknown> =>
        Promise.all(Array.from({ length: networks }, (_, n) => catalog.recordInstalls({ day, network: `network-${n}`, versions: [hello] })));
      await recordOn('2030-03-10', 150);
      await recordOn('2030-03-15', 40);
      // A day older than the 7 is not looked at; a network recorded twice on one day counts once.
      await recordOn('2030-03-08', 200);
      await recordOn('2030-03-15', 40);
      await catalog.recordInstalls({ day: '2030-03-15', network: 'network-0', versions: [hello, { pluginId: 'com.example.hello', version: '1.0.1' }] });
      expect(await catalog.pauseState(hello, ruleOf(2))).toEqual({ reporters: 3, installedBase: 150, lift: null });
      expect(await catalog.rolloutPauses(candidates, ruleOf(2))).toEqual([false, false, false, false]);
      // 1.0.1's one reporter is its whole base of 1, but 2 % of 1 rounds up to 1: not more than it.
      expect(await catalog.rolloutPauses(candidates, ruleOf(0))).toEqual([false, false, false, false]);
      for (const reporter of ['e', 'f']) await report('1.0.0', reporter, at(0));
      expect(await catalog.rolloutPauses(candidates, ruleOf(2))).toEqual([true, false, false, false]);

      // A lift at 5 reporters holds up to 10.
      await catalog.liftPause({
        ...hello,
        versionId: 'v-1',
        liftedAt: at(0),
        liftedBy: 'admin',
        reason: 'test',
        reporters: 5,
        actorAddress: '127.0.0.1',
        installedBase: 150,
        pauseThreshold: 3,
      });
      const lift = { liftedAt: at(0), liftedBy: 'admin', reason: 'test', reporters: 5 };
      expect(await catalog.pauseState(hello, ruleOf(2))).toEqual({ reporters: 5, installedBase: 150, lift });
      expect(await catalog.rolloutPauses(candidates, ruleOf(2))).toEqual([false, false, false, false]);
      for (const reporter of ['g', 'h', 'i', 'j', 'k']) await report('1.0.0', reporter, at(0));
      expect(await catalog.rolloutPauses(candidates, ruleOf(2))).toEqual([false, false, false, false]);
      await report('1.0.0', 'l', at(0));
      expect(await catalog.rolloutPauses(candidates, ruleOf(2))).toEqual([true, false, false, false]);

      // The query and the rule's function (the admin view's) agree on every candidate and threshold.
      for (const threshold of [0, 1, 2, 5, 11, 12]) {
        const states = await Promise.all(candidates.map((candidate) => catalog.pauseState(candidate, ruleOf(threshold))));
        expect(await catalog.rolloutPauses(candidates, ruleOf(threshold)), `threshold ${threshold}`).toEqual(
          states.map((state) => isPausedState(state, threshold)),
        );
      }

      // The purge keeps the counts of the last 8 days and the networks of today and yesterday only.
      expect(await catalog.forgetInstallsBefore('2030-03-14', '2030-03-08')).toBe(350);
      expect(await catalog.listedInstalled('2030-03-15', 'network-0', hello)).toBe(true);
      expect(await catalog.listedInstalled('2030-03-10', 'network-0', hello)).toBe(false);
      expect((await catalog.pauseState(hello, ruleOf(2))).installedBase).toBe(150);
    });

    it('rolloutPausesWithRevision answers rolloutPauses and the catalog revision of the same read', async () => {
      await catalog.addVersion(version('com.example.hello', '1.0.0'));
      for (const reporter of ['a', 'b', 'c']) await report('1.0.0', reporter, at(0));
      await report('1.0.1', 'd', at(0));
      const candidates = [
        { pluginId: 'com.example.hello', version: '1.0.0' },
        { pluginId: 'com.example.hello', version: '1.0.1' },
        { pluginId: 'com.example.other', version: '1.0.0' },
      ];
      const revision = await catalog.catalogRevision();
      for (const threshold of [0, 1, 2, 3]) {
        expect(await catalog.rolloutPausesWithRevision(candidates, ruleOf(threshold))).toEqual({
          revision,
          paused: await catalog.rolloutPauses(candidates, ruleOf(threshold)),
        });
      }
      expect(await catalog.rolloutPausesWithRevision([], ruleOf(2))).toEqual({ revision, paused: [] });
      // Reports, installs and lifts are not catalog changes; a version is.
      await catalog.recordInstalls({ day: '2030-03-15', network: 'n', versions: [candidates[0]!] });
      expect((await catalog.rolloutPausesWithRevision(candidates, ruleOf(2))).revision).toBe(revision);
      await catalog.addVersion(version('com.example.hello', '1.1.0'));
      const raised = await catalog.catalogRevision();
      expect(raised).toBeGreaterThan(revision);
      expect((await catalog.rolloutPausesWithRevision(candidates, ruleOf(2))).revision).toBe(raised);
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
      expect(calls).toEqual(['catalogRevision', 'latestPublishedOf', 'rolloutPauses']);
      expect(await offered()).toEqual(['1.0.0/100']);
      expect(calls).toEqual(['rolloutPausesWithRevision']);
      // Pause decisions are read on every request, also from kept versions.
      for (const reporter of ['a', 'b', 'c']) await report('1.0.0', reporter, at(0));
      expect(await offered()).toEqual([]);
      expect(calls).toEqual(['rolloutPausesWithRevision']);
      // A catalog change through anything else is seen by the next request, never the kept version.
      const second = await catalog.addVersion(version('com.example.hello', '1.1.0'));
      expect(await offered()).toEqual(['1.1.0/100']);
      expect(calls).toEqual(['rolloutPausesWithRevision', 'catalogRevision', 'latestPublishedOf', 'rolloutPauses']);
      await catalog.setRolloutPercent(second.id, 30);
      expect(await offered()).toEqual(['1.1.0/30']);
      await catalog.setVersionStatus(second.id, 'rejected', { at: AT });
      expect(await offered()).toEqual([]);
      await catalog.setVersionStatus(first.id, 'rejected', { at: AT });
      expect(await offered()).toEqual([]);
      expect(await offered()).toEqual([]);
      expect(calls).toEqual(['rolloutPausesWithRevision']);
    });

    it('keeps the pause count equal to the raw reports through inserts, re-keying, direct inserts and purges', async () => {
      const sinces = [at(-48), at(-30), at(-24), at(-12), at(-1), at(0), at(1)];
      const check = async (): Promise<void> => {
        for (const pluginVersion of ['1.0.0', '1.0.1']) {
          for (const since of sinces) {
            const raw = await rawReporters(store, 'com.example.hello', pluginVersion, since);
            expect(await catalog.countRecentReporters('com.example.hello', pluginVersion, since), `${pluginVersion} since ${since}`).toBe(raw);
            const candidate = [{ pluginId: 'com.example.hello', version: pluginVersion }];
            if (raw > 0) expect(await catalog.rolloutPauses(candidate, ruleOf(raw - 1, since))).toEqual([true]);
            expect(await catalog.rolloutPauses(candidate, ruleOf(raw, since))).toEqual([false]);
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
      expect(await catalog.rolloutPauses([{ pluginId: 'x.hello', version: '1.0.0' }], ruleOf(2))).toEqual([false]);
      expect(await catalog.rolloutPauses([{ pluginId: 'x.hello', version: '1.0.0' }], ruleOf(1))).toEqual([true]);
    } finally {
      database.close();
      await rm(folder, { recursive: true, force: true });
    }
  });
});
