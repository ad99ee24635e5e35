/**
 * Moving a store from SQLite to PostgreSQL (docs/registry-operators.md): a SQLite registry with
 * accounts, a session, a certified key, plugins, reviews, downloads and reports is copied into an
 * empty PostgreSQL database, and a registry started on the copy answers exactly as before.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '@plughost/backend-kit';
import { FileBlobStore, STORE_TABLES, copySqliteStoreToPostgres, openSqliteStore, type SqliteToPostgresReport } from '@plughost/registry';
import { startProcess, type RunningProcess } from '../../support/processes.js';
import { STRONG_PASSWORD } from './auth/auth-support.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';
import { DEVELOPER_SEEDS, PUBLISHERS, publicKeyOf } from './publishing/publishing-support.js';
import { jsonOf, startTestRegistry, testClock, type TestRegistry } from './registry-support.js';
import { storeRows } from './store-support.js';

/** The answers compared before and after the move. */
const READS = [
  '/registry',
  '/plugins',
  '/plugins/hello',
  '/plugins/hello/reviews',
  '/plugins/hello/stats',
  '/plugins/hello/versions/1.1.0/download',
  '/developer/keys/revoked',
];

async function exitOf(process: RunningProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (process.child.exitCode !== null) resolve(process.child.exitCode);
    else process.child.once('exit', (code) => resolve(code));
  });
}

describe('copying a SQLite store into PostgreSQL', () => {
  const clock = testClock();
  const publicUrl = 'https://store.example.com/api/v1';
  const apiKeys = Object.entries(PUBLISHERS).map(([username, key]) => ({ username, key }));
  let folder: string;
  let source: string;
  let database: TestDatabase;
  let report: SqliteToPostgresReport;
  let before: Map<string, string>;
  let sourceCounts: Map<string, number>;
  let refreshToken: string;
  let packageBytes: Uint8Array;

  async function answers(store: TestRegistry): Promise<Map<string, string>> {
    const read = new Map<string, string>();
    for (const path of READS) read.set(path, await (await store.api(path)).text());
    return read;
  }

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'registry-copy-'));
    source = join(folder, 'sqlite-store');
    database = await createTestDatabase();
    const store = await startTestRegistry({ dataDirectory: source, clock, publicUrl, apiKeys });
    try {
      const seeded = await store.seed({ id: 'com.example.hello', slug: 'hello', tags: ['maps'], versions: [{ version: '1.0.0' }, { version: '1.1.0' }] });
      packageBytes = seeded.bytes.get('1.1.0') as Uint8Array;
      expect((await store.api('/auth/register', { json: { username: 'reader', password: STRONG_PASSWORD } })).status).toBe(201);
      const login = await jsonOf<{ access_token: string; refresh_token: string }>(
        await store.api('/auth/login', { json: { username: 'reader', password: STRONG_PASSWORD } }),
      );
      refreshToken = login.refresh_token;
      const review = await store.api('/plugins/hello/reviews', {
        json: { rating: 4, text: 'Good' },
        headers: { Authorization: `Bearer ${login.access_token}` },
      });
      expect(review.status).toBe(201);
      for (const seed of [DEVELOPER_SEEDS.alice1, DEVELOPER_SEEDS.alice2]) {
        await store.api('/developer/keys', { json: { publicKey: publicKeyOf(seed) }, headers: { Authorization: `Bearer ${PUBLISHERS.alice}` } });
      }
      expect((await store.api('/plugins/hello/versions/1.1.0/package')).status).toBe(200);
      // The launcher lists 1.1.0 (its network runs it, decisions section 12), then reports it.
      const installed = { launcherVersion: '2.0.0', installed: [{ slug: 'hello', version: '1.1.0' }] };
      expect((await store.api('/plugins/check-updates', { json: installed })).status).toBe(200);
      const reportBody = { pluginId: 'hello', pluginVersion: '1.1.0', errorType: 'launch_crash', launcherVersion: '2.0.0' };
      expect((await store.api('/telemetry/plugin-error', { json: reportBody })).status).toBe(202);
      await store.registry.catalog.liftPause({
        pluginId: 'com.example.hello',
        version: '1.1.0',
        versionId: seeded.versions[1]!.id,
        liftedAt: clock.now().toISOString(),
        liftedBy: 'admin',
        reason: 'Copied with the store',
        reporters: 1,
        actorAddress: '127.0.0.1',
        installedBase: 1,
        pauseThreshold: 10,
      });
      before = await answers(store);
    } finally {
      await store.close();
    }
    const sqlite = openSqliteStore(join(source, 'registry.db'));
    try {
      sourceCounts = new Map();
      for (const table of STORE_TABLES) {
        sourceCounts.set(table, ((await storeRows<{ n: number }>(sqlite, `SELECT COUNT(*) AS n FROM ${table}`))[0] as { n: number }).n);
      }
    } finally {
      await sqlite.close();
    }
    report = await copySqliteStoreToPostgres({
      sqliteFile: join(source, 'registry.db'),
      databaseUrl: database.url,
      packagesDirectory: join(source, 'packages'),
      packagesTarget: join(folder, 'shared-packages'),
      logger: silentLogger,
    });
  });
  afterAll(async () => {
    await database?.drop();
    await rm(folder, { recursive: true, force: true });
  });

  it('copies every row of every table and each package file the versions name', () => {
    expect(report.tables.map((entry) => [entry.table, entry.rows])).toEqual(STORE_TABLES.map((table) => [table, sourceCounts.get(table)]));
    for (const table of [
      'plugins',
      'plugin_versions',
      'accounts',
      'auth_refresh_tokens',
      'developer_keys',
      'plugin_reviews',
      'plugin_error_reports',
      'plugin_version_installs',
      'plugin_version_install_counts',
      'rollout_pause_lifts',
      'audit_log',
    ]) {
      expect(sourceCounts.get(table), table).toBeGreaterThan(0);
    }
    expect(report).toMatchObject({ packages: 2, packagesCopied: 2, packagesMissing: [] });
  });

  it('gives a registry on the copy the same answers, logins, sessions and package bytes', async () => {
    const copy = await startTestRegistry({
      dataDirectory: join(folder, 'postgres-instance'),
      databaseUrl: database.url,
      blobStore: new FileBlobStore(join(folder, 'shared-packages')),
      clock,
      publicUrl,
      apiKeys,
    });
    try {
      expect(await answers(copy)).toEqual(before);
      expect(new Uint8Array(await (await copy.api('/plugins/hello/versions/1.1.0/package')).arrayBuffer())).toEqual(packageBytes);
      expect((await copy.api('/auth/login', { json: { username: 'reader', password: STRONG_PASSWORD } })).status).toBe(200);
      expect((await copy.api('/auth/refresh', { json: { refresh_token: refreshToken } })).status).toBe(200);
      // New reports get fresh ids after the copied ones; the copied installs still say the
      // network runs 1.1.0 today, so its report is kept.
      const reportBody = { pluginId: 'hello', pluginVersion: '1.1.0', errorType: 'launch_crash', launcherVersion: '2.0.0' };
      expect((await copy.api('/telemetry/plugin-error', { json: reportBody })).status).toBe(202);
      expect(await storeRows(copy.registry.store, 'SELECT COUNT(*) AS n FROM plugin_error_reports')).toEqual([{ n: 2 }]);
    } finally {
      await copy.close();
    }
  });

  it('refuses a target that is not empty, changing nothing, so a second run is safe', async () => {
    const again = copySqliteStoreToPostgres({
      sqliteFile: join(source, 'registry.db'),
      databaseUrl: database.url,
      packagesDirectory: join(source, 'packages'),
      logger: silentLogger,
    });
    await expect(again).rejects.toThrow(/not empty \(plugins has rows\).*nothing was copied/);
    await expect(
      copySqliteStoreToPostgres({
        sqliteFile: join(folder, 'none', 'registry.db'),
        databaseUrl: database.url,
        packagesDirectory: folder,
        logger: silentLogger,
      }),
    ).rejects.toThrow(/no SQLite store/);
  });

  it('runs as scripts/registry-sqlite-to-postgres.mjs: the report on stdout, a refusal exits 1, bad usage 2', async () => {
    const run = (args: string[]): RunningProcess =>
      startProcess(process.execPath, ['scripts/registry-sqlite-to-postgres.mjs', ...args], { env: { ...process.env } });
    const target = await createTestDatabase();
    try {
      const copied = run(['--data', source, '--database-url', target.url]);
      expect(await exitOf(copied)).toBe(0);
      expect(JSON.parse(copied.stdout())).toMatchObject({ tables: report.tables, packages: 2, packagesMissing: [] });
      const refused = run(['--data', source, `--database-url=${target.url}`]);
      expect(await exitOf(refused)).toBe(1);
      expect(refused.stderr()).toMatch(/registry-sqlite-to-postgres: .*is not empty/);
      expect(refused.stdout()).toBe('');
    } finally {
      await target.drop();
    }
    const usage = run(['--data', source, '--database-url', 'mysql://db/registry']);
    expect(await exitOf(usage)).toBe(2);
    expect(usage.stderr()).toMatch(/postgres:\/\/ URL/);
  });
});
