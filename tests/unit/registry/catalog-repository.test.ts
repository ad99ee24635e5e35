import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CATALOG_MIGRATIONS,
  CATALOG_MODULE,
  RegistryDatabase,
  SqliteCatalogRepository,
  isRegistryError,
  versionOrder,
  type CatalogRepository,
  type NewVersion,
  type RegistryStore,
} from '@plughost/registry';
import { COUNT_RECENT_REPORTERS_SQL, ROLLOUT_PAUSES_SQL } from '../../../registry/src/catalog/sqlite-catalog-repository.js';
import { forEachStore, openTestStore, storeRows, type TestStore } from './store-support.js';

const AT = '2030-03-15T12:00:00.000Z';
const SHA = 'a'.repeat(64);

function version(pluginId: string, value: string, overrides: Partial<NewVersion> = {}): NewVersion {
  return { pluginId, version: value, sha256: SHA, sizeBytes: 10, minLauncherVersion: '1.0.0', status: 'published', createdAt: AT, ...overrides };
}

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return isRegistryError(error) ? error.code : `not a registry error: ${String(error)}`;
  }
}

describe('versionOrder', () => {
  it('orders keys byte-wise exactly as semver precedence', () => {
    const ordered = [
      '0.0.1',
      '0.9.0',
      '1.0.0-0',
      '1.0.0-2',
      '1.0.0-10',
      '1.0.0-alpha',
      '1.0.0-alpha.1',
      '1.0.0-alpha.beta',
      '1.0.0-alpha-b',
      '1.0.0-beta',
      '1.0.0-beta.2',
      '1.0.0-beta.11',
      '1.0.0-rc.1',
      '1.0.0',
      '1.0.1',
      '1.2.0',
      '1.10.0',
      '2.0.0',
      '10.0.0',
      '9007199254740990.0.0',
    ];
    const keys = ordered.map((value) => versionOrder(value).key);
    expect([...keys].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))).toEqual(keys);
    expect(new Set(keys).size).toBe(keys.length);
    expect(versionOrder('1.0.0+build.5').key).toBe(versionOrder('1.0.0').key);
    expect(versionOrder('1.0.0-rc.1').prerelease).toBe(true);
    expect(versionOrder('1.0.0').prerelease).toBe(false);
  });
});

describe('SqliteCatalogRepository', () => {
  it('runs its migrations once, so a second repository on the same database works', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'catalog-'));
    const database = new RegistryDatabase(join(folder, 'registry.db'));
    try {
      new SqliteCatalogRepository(database);
      expect(() => new SqliteCatalogRepository(database)).not.toThrow();
      expect(database.db.prepare(`SELECT id FROM schema_migrations WHERE module = 'catalog'`).all()).toEqual([
        { id: '001-catalog' },
        { id: '002-reporter-networks' },
        { id: '003-catalog-listing' },
        { id: '004-update-checks' },
        { id: '005-installed-base' },
      ]);
      const plan = database.db
        .prepare(`EXPLAIN QUERY PLAN ${COUNT_RECENT_REPORTERS_SQL}`)
        .all({ pluginId: 'com.example.hello', version: '1.0.0', since: AT }) as { detail: string }[];
      const details = plan.map((row) => row.detail).join('\n');
      // The pause count is answered from an index that covers it: one entry per reporter in the window.
      expect(details).toMatch(
        /SEARCH plugin_version_reporters USING COVERING INDEX plugin_version_reporters_recent \(plugin_id=\? AND plugin_version=\? AND last_report_at>\?\)/,
      );
      expect(details).not.toMatch(/SCAN plugin_version_reporters|plugin_error_reports/);
      // The pause decisions look every table up by its key or index, never a scan (decisions section 12).
      const pausePlan = database.db
        .prepare(`EXPLAIN QUERY PLAN ${ROLLOUT_PAUSES_SQL}`)
        .all({ candidates: '[["com.example.hello","1.0.0"]]', since: AT, threshold: 10, baseFromDay: '2030-03-09', basePercent: 2 }) as { detail: string }[];
      const pauseDetails = pausePlan.map((row) => row.detail).join('\n');
      expect(pauseDetails).toMatch(
        /SEARCH r USING COVERING INDEX plugin_version_reporters_recent \(plugin_id=\? AND plugin_version=\? AND last_report_at>\?\)/,
      );
      expect(pauseDetails).toMatch(/SEARCH i USING PRIMARY KEY \(plugin_id=\? AND plugin_version=\? AND day>\?\)/);
      expect(pauseDetails).toMatch(/SEARCH l USING PRIMARY KEY \(plugin_id=\? AND plugin_version=\?\)/);
      expect(pauseDetails).not.toMatch(/SCAN (r|i|l|plugin_)/);
    } finally {
      database.close();
      await rm(folder, { recursive: true, force: true });
    }
  });
});

/** 20,000 reports of other plugins and versions, written straight into the table. */
async function storeManyReports(store: RegistryStore): Promise<void> {
  if (store.kind === 'sqlite') {
    const insert = store.database.db.prepare(
      `INSERT INTO plugin_error_reports (plugin_id, plugin_version, reporter, error_type, launcher_version, received_at) VALUES (?, ?, ?, 'launch_crash', '1.0.0', ?)`,
    );
    store.database.transaction(() => {
      for (let i = 0; i < 20_000; i += 1) insert.run(`com.vendor${i % 500}.plugin${i % 97}`, `1.0.${i % 13}`, `network-${i % 300}`, AT);
    });
    return;
  }
  await store.database.query(
    `INSERT INTO plugin_error_reports (plugin_id, plugin_version, reporter, error_type, launcher_version, received_at)
     SELECT 'com.vendor' || (i % 500) || '.plugin' || (i % 97), '1.0.' || (i % 13), 'network-' || (i % 300), 'launch_crash', '1.0.0', $1
     FROM generate_series(0, 19999) AS i`,
    [AT],
  );
}

forEachStore(() => {
  describe('CatalogRepository', () => {
    let opened: TestStore;
    let store: RegistryStore;
    let catalog: CatalogRepository;

    beforeEach(async () => {
      opened = await openTestStore();
      store = opened.store;
      catalog = store.catalog;
      await catalog.createPlugin({
        id: 'com.example.hello',
        slug: 'hello',
        ownerAccountId: 'owner',
        name: 'Hello',
        tags: [' Fun ', 'fun', 'MAPS', ''],
        createdAt: AT,
      });
    });
    afterEach(() => opened.close());

    it('normalizes tags and refuses taken ids and slugs and malformed slugs', async () => {
      expect((await catalog.getPlugin('com.example.hello'))?.tags).toEqual(['fun', 'maps']);
      expect(await codeOf(catalog.createPlugin({ id: 'com.example.hello', slug: 'other', ownerAccountId: 'x', name: 'x', createdAt: AT }))).toBe(
        'plugin_id_taken',
      );
      expect(await codeOf(catalog.createPlugin({ id: 'com.example.other', slug: 'hello', ownerAccountId: 'x', name: 'x', createdAt: AT }))).toBe('slug_taken');
      for (const slug of ['Hello', 'a.b', '-x', 'x-', 'a--b', '', 'x'.repeat(65)]) {
        expect(await codeOf(catalog.createPlugin({ id: 'com.example.other', slug, ownerAccountId: 'x', name: 'x', createdAt: AT }))).toBe('invalid_argument');
      }
    });

    it('picks the highest release as latest, a pre-release only when nothing else is published', async () => {
      await catalog.addVersion(version('com.example.hello', '1.0.0-beta.1'));
      expect((await catalog.latestPublished('hello'))?.version).toBe('1.0.0-beta.1');
      await catalog.addVersion(version('com.example.hello', '0.9.0'));
      await catalog.addVersion(version('com.example.hello', '0.10.0'));
      expect((await catalog.latestPublished('hello'))?.version).toBe('0.10.0');
      await catalog.addVersion(version('com.example.hello', '2.0.0', { status: 'pending_review' }));
      expect((await catalog.latestPublished('hello'))?.version).toBe('0.10.0');
      expect((await catalog.getPublishedBySlug('hello'))?.latestVersion).toBe('0.10.0');
    });

    it('refuses a version that exists, also with other build metadata', async () => {
      await catalog.addVersion(version('com.example.hello', '1.0.0+a'));
      expect(await codeOf(catalog.addVersion(version('com.example.hello', '1.0.0+a', { status: 'pending_review' })))).toBe('version_exists');
      expect(await codeOf(catalog.addVersion(version('com.example.hello', '1.0.0+b')))).toBe('version_exists');
      expect(await codeOf(catalog.addVersion(version('com.example.nope', '1.0.0')))).toBe('not_found');
      expect(await codeOf(catalog.addVersion(version('com.example.hello', 'v2')))).toBe('invalid_argument');
      expect(await codeOf(catalog.addVersion(version('com.example.hello', '2.0.0', { rolloutPercent: 101 })))).toBe('invalid_argument');
    });

    it('publishes a reviewed version once, keeping its first publication date', async () => {
      const pending = await catalog.addVersion(version('com.example.hello', '1.0.0', { status: 'pending_review' }));
      expect(pending.publishedAt).toBeNull();
      expect(await catalog.getPublishedBySlug('hello')).toBeNull();
      expect((await catalog.listPending()).map((entry) => [entry.slug, entry.version, entry.ownerAccountId])).toEqual([['hello', '1.0.0', 'owner']]);
      const published = await catalog.setVersionStatus(pending.id, 'published', { at: '2030-03-16T00:00:00.000Z', reviewNote: 'Looks fine' });
      expect(published).toMatchObject({ status: 'published', publishedAt: '2030-03-16T00:00:00.000Z', reviewNote: 'Looks fine' });
      expect(await catalog.listPending()).toEqual([]);
      const rejected = await catalog.setVersionStatus(pending.id, 'rejected', { at: '2030-03-17T00:00:00.000Z' });
      expect(rejected).toMatchObject({ status: 'rejected', reviewNote: 'Looks fine' });
      expect(await catalog.publishedVersion('hello', '1.0.0')).toBeNull();
      expect((await catalog.version('hello', '1.0.0'))?.status).toBe('rejected');
      const again = await catalog.setVersionStatus(pending.id, 'published', { at: '2030-03-18T00:00:00.000Z' });
      expect(again.publishedAt).toBe('2030-03-16T00:00:00.000Z');
      expect((await catalog.setRolloutPercent(pending.id, 25)).rolloutPercent).toBe(25);
      expect(await codeOf(catalog.setVersionStatus('no-such-id', 'published', { at: AT }))).toBe('not_found');
    });

    it('decides a review once: of two decisions at once one wins, and a decided version is not decided again', async () => {
      const pending = await catalog.addVersion(version('com.example.hello', '1.0.0', { status: 'pending_review' }));
      const decisions = await Promise.all([
        catalog.decideReview(pending.id, 'published', { at: '2030-03-16T00:00:00.000Z' }),
        catalog.decideReview(pending.id, 'rejected', { at: '2030-03-16T00:00:00.000Z', reviewNote: 'No' }),
      ]);
      const [winner, ...others] = decisions.filter((decision) => decision !== null);
      expect(others).toEqual([]);
      expect((await catalog.version('hello', '1.0.0'))?.status).toBe(winner?.status);
      expect(await catalog.decideReview(pending.id, 'published', { at: AT })).toBeNull();
      expect(await catalog.decideReview('no-such-id', 'published', { at: AT })).toBeNull();
    });

    it('records an upload in one transaction: a failed step leaves no plugin behind', async () => {
      const plugin = { id: 'com.example.fresh', slug: 'fresh', ownerAccountId: 'owner', name: 'Fresh', createdAt: AT };
      const facts = { uploadedBy: 'owner', uploaderName: 'owner', reviewReasons: [], highestRisk: 'normal' } as const;
      const { pluginId: _pluginId, ...upload } = version('com.example.fresh', '1.0.0');
      expect(await codeOf(store.publishing.recordUpload({ plugin, version: { ...upload, version: '1.0.0', sha256: 'not hex' }, facts }))).toBe(
        'invalid_argument',
      );
      expect(await catalog.getPlugin('com.example.fresh')).toBeNull();
      const outcomes = await Promise.allSettled([
        store.publishing.recordUpload({ plugin, version: { ...upload, version: '1.0.0' }, facts }),
        store.publishing.recordUpload({ plugin, version: { ...upload, version: '1.0.0+other' }, facts }),
      ]);
      expect(
        outcomes.map((outcome) => (outcome.status === 'fulfilled' ? 'recorded' : isRegistryError(outcome.reason) ? outcome.reason.code : 'other')).sort(),
      ).toEqual(['recorded', 'version_exists']);
      expect((await catalog.versionsOf('com.example.fresh')).length).toBe(1);
      expect(
        await codeOf(store.publishing.recordUpload({ plugin: { ...plugin, ownerAccountId: 'thief' }, version: { ...upload, version: '2.0.0' }, facts })),
      ).toBe('plugin_id_taken');
      expect(
        await codeOf(store.publishing.recordUpload({ plugin: { ...plugin, id: 'com.example.copycat' }, version: { ...upload, version: '1.0.0' }, facts })),
      ).toBe('slug_taken');
    });

    it("lists an owner's plugins and a plugin's versions in every state", async () => {
      await catalog.createPlugin({ id: 'com.example.alpha', slug: 'alpha', ownerAccountId: 'owner', name: 'Alpha', createdAt: AT });
      await catalog.createPlugin({ id: 'com.example.else', slug: 'else', ownerAccountId: 'someone', name: 'Else', createdAt: AT });
      expect((await catalog.pluginsOwnedBy('owner')).map((plugin) => plugin.slug)).toEqual(['alpha', 'hello']);
      await catalog.addVersion(version('com.example.hello', '1.0.0', { createdAt: '2030-03-01T00:00:00.000Z' }));
      await catalog.addVersion(version('com.example.hello', '1.1.0', { status: 'rejected', createdAt: '2030-03-02T00:00:00.000Z' }));
      expect((await catalog.versionsOf('com.example.hello')).map((entry) => [entry.version, entry.status])).toEqual([
        ['1.1.0', 'rejected'],
        ['1.0.0', 'published'],
      ]);
      const updated = await catalog.updatePlugin('com.example.hello', { description: 'New', category: 'fun', iconUrl: null });
      expect(updated).toMatchObject({ name: 'Hello', description: 'New', category: 'fun', iconUrl: null, tags: ['fun', 'maps'] });
    });

    it('counts distinct reporters of one exact id@version among many stored reports', async () => {
      await storeManyReports(store);
      const add = (pluginId: string, pluginVersion: string, reporter: string, receivedAt = AT): Promise<void> =>
        catalog.addReport({ pluginId, pluginVersion, errorType: 'plugin_load_failed', launcherVersion: '1.0.0', receivedAt, reporter });
      for (const reporter of ['a', 'b', 'c', 'a', 'a']) await add('com.example.hello', '1.0.0', reporter);
      await add('com.example.hello', '1.0.1', 'd');
      await add('com.example.hello2', '1.0.0', 'e');
      expect(await catalog.countRecentReporters('com.example.hello', '1.0.0', '2030-03-15T00:00:00.000Z')).toBe(3);
      expect(await catalog.countRecentReporters('com.example.hello', '1.0.0', '2030-03-15T12:00:00.001Z')).toBe(0);
      expect(await catalog.purgeReportsBefore('2030-03-16T00:00:00.000Z')).toBe(20_007);
    });

    it("re-keys a network's reports of the same version from the previous day's hash", async () => {
      const add = (pluginVersion: string, reporter: string, receivedAt: string, previousReporter?: string): Promise<void> =>
        catalog.addReport({
          pluginId: 'com.example.hello',
          pluginVersion,
          errorType: 'launch_crash',
          launcherVersion: '1.0.0',
          receivedAt,
          reporter,
          ...(previousReporter ? { previousReporter } : {}),
        });
      await add('1.0.0', 'day1-net', '2030-03-15T23:00:00.000Z');
      await add('1.0.1', 'day1-net', '2030-03-15T23:00:00.000Z');
      await add('1.0.0', 'day2-net', '2030-03-16T01:00:00.000Z', 'day1-net');
      const reporters = await storeRows(store, 'SELECT plugin_version, reporter FROM plugin_error_reports ORDER BY id');
      expect(reporters).toEqual([
        { plugin_version: '1.0.0', reporter: 'day2-net' },
        { plugin_version: '1.0.1', reporter: 'day1-net' },
        { plugin_version: '1.0.0', reporter: 'day2-net' },
      ]);
      expect(await catalog.countRecentReporters('com.example.hello', '1.0.0', '2030-03-15T02:00:00.000Z')).toBe(1);
    });

    it('keeps one salt per UTC day, the same for every caller, and forgets old ones', async () => {
      const first = await catalog.reporterSalts('2030-03-15', '2030-03-14');
      expect(first.current).toHaveLength(32);
      expect(first.previous).toBeNull();
      expect((await catalog.reporterSalts('2030-03-15', '2030-03-14')).current).toEqual(first.current);
      const next = await catalog.reporterSalts('2030-03-16', '2030-03-15');
      expect(next.previous).toEqual(first.current);
      expect(next.current).not.toEqual(first.current);
      await catalog.reporterSalts('2030-03-17', '2030-03-16');
      expect(await storeRows(store, 'SELECT day FROM telemetry_salts ORDER BY day')).toEqual([{ day: '2030-03-16' }, { day: '2030-03-17' }]);
      expect(await catalog.forgetSaltsBefore('2030-03-17')).toBe(1);
    });
  });
});

describe('upgrading a store from the first catalog schema', () => {
  it('drops the old reports, which were counted one by one without a reporter', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'registry-upgrade-'));
    const database = new RegistryDatabase(join(folder, 'registry.db'));
    try {
      database.migrate(CATALOG_MODULE, CATALOG_MIGRATIONS.slice(0, 1));
      database.db
        .prepare(
          `INSERT INTO plugin_error_reports (plugin_id, id_tail, plugin_version, error_type, launcher_version, received_at) VALUES ('x.hello', 'hello', '1.0.0', 'launch_crash', '1.0.0', ?)`,
        )
        .run(AT);
      const catalog = new SqliteCatalogRepository(database);
      expect(database.db.prepare('SELECT COUNT(*) AS n FROM plugin_error_reports').get()).toEqual({ n: 0 });
      await catalog.addReport({
        pluginId: 'x.hello',
        pluginVersion: '1.0.0',
        errorType: 'launch_crash',
        launcherVersion: '1.0.0',
        receivedAt: AT,
        reporter: 'r',
      });
      expect(await catalog.countRecentReporters('x.hello', '1.0.0', AT)).toBe(1);
    } finally {
      database.close();
      await rm(folder, { recursive: true, force: true });
    }
  });
});
