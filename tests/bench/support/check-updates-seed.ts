/**
 * The catalog and telemetry of the check-updates benchmark (issue 18: 200 installed plugins, 1,000,000
 * stored error reports), written straight into a registry store with bulk SQL (multi-row inserts in
 * transactions), so seeding takes seconds on SQLite and PostgreSQL alike. Deterministic: a seeded
 * pseudo-random sequence, so every run (and both stores) holds the same rows.
 *
 * The shape, chosen to look like a public store's day:
 *
 * - `plugins` plugins (default 2,000), each with five published versions `1.0.0` to `1.4.0`;
 * - the installed set: every tenth plugin, at `1.0.0` to `1.2.0`, so each has a newer candidate
 *   (`1.4.0`); a quarter of the candidates roll out to 10, 25 or 50 %, five need a newer launcher
 *   than the benchmark's;
 * - `reports` reports (default 1,000,000) spread evenly over the 48-hour retention, over plugins
 *   with a skew (popular plugins get most reports: plugin `floor(n * u^2)` for uniform `u`) and
 *   over versions (60 % the latest). Older versions and other plugins are reported from a pool of
 *   200,000 networks. A candidate's reports of the last 24 hours come from a handful of networks
 *   (one to eight; many reports each), older ones from a wider pool that the window no longer
 *   sees; 15 candidates sit at exactly the threshold (offered) and 15 just above it (withheld).
 *
 * Reporter values stand for the intake's salted network hashes (43 base64url characters).
 */
import { createHash } from 'node:crypto';
import { versionOrder, type RegistryStore } from '@plughost/registry';

/** Options of {@link seedCheckUpdatesCatalog}. */
export interface CheckUpdatesSeedOptions {
  /** Plugins in the catalog (default 2,000; at least 10 × `installed`). */
  readonly plugins?: number;
  /** Installed plugins the request lists (default 200). */
  readonly installed?: number;
  /** Error reports stored (default 1,000,000). */
  readonly reports?: number;
  /** The pause threshold the near misses are built around (default 10). */
  readonly pauseThreshold?: number;
  /** "Now" of the registry that will answer (reports are placed in the 48 hours before it). */
  readonly now: Date;
}

/** What was seeded, and the request body the benchmark sends. */
export interface CheckUpdatesSeed {
  readonly launcherVersion: string;
  readonly installed: readonly { readonly slug: string; readonly version: string }[];
  readonly plugins: number;
  readonly versions: number;
  readonly reports: number;
  /** Candidates whose reporters in the window exceed the threshold (withheld). */
  readonly paused: number;
  /** Candidates at exactly the threshold (offered). */
  readonly atThreshold: number;
  /** Candidates that a partial rollout limits. */
  readonly partialRollout: number;
  /** Candidates the launcher is too old for. */
  readonly tooNewForLauncher: number;
  /** Items an answer holds: installed minus withheld minus too new. */
  readonly expectedUpdates: number;
  /** Milliseconds the catalog and the reports took to write. */
  readonly seedMs: number;
}

const VERSIONS: readonly string[] = ['1.0.0', '1.1.0', '1.2.0', '1.3.0', '1.4.0'];
const LATEST = VERSIONS.length - 1;
const HOUR = 3_600_000;
const GLOBAL_NETWORKS = 200_000;
const OLD_WINDOW_NETWORKS = 40;
const BATCH = 10_000;
const LAUNCHER_VERSION = '2.0.0';
const ERROR_TYPES = ['plugin_runtime_error', 'launch_crash', 'bridge_error'] as const;

/** A small, fast, seeded generator (mulberry32): the same rows every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const networkHash = (name: string): string => createHash('sha256').update(name).digest('base64url');

interface CandidatePlan {
  /** Networks that report the candidate in the last 24 hours. */
  readonly recent: readonly string[];
  /** Networks that reported it 24 to 48 hours ago only. */
  readonly old: readonly string[];
}

interface PluginRow {
  id: string;
  slug: string;
}

interface VersionRow {
  id: string;
  pluginId: string;
  version: string;
  versionKey: string;
  sha256: string;
  minLauncherVersion: string;
  minLauncherKey: string;
  rolloutPercent: number;
  publishedAt: string;
}

interface ReportRow {
  pluginId: string;
  version: string;
  reporter: string;
  errorType: string;
  receivedAt: string;
}

const pluginIdOf = (index: number): string => `com.bench${index % 50}.updates-${index}`;

/** Writes rows in batches, inside one transaction per store. */
interface BulkWriter {
  plugins(rows: readonly PluginRow[], createdAt: string): Promise<void>;
  versions(rows: readonly VersionRow[]): Promise<void>;
  reports(rows: readonly ReportRow[]): Promise<void>;
  done(): Promise<void>;
}

function sqliteWriter(store: Extract<RegistryStore, { kind: 'sqlite' }>): BulkWriter {
  const db = store.database.db;
  const insertPlugin = db.prepare(
    `INSERT INTO plugins (id, slug, owner_account_id, name, description, tags, created_at) VALUES (?, ?, 'bench-owner', ?, 'A plugin of the check-updates benchmark', '[]', ?)`,
  );
  const insertVersion = db.prepare(
    `INSERT INTO plugin_versions (id, plugin_id, version, version_key, prerelease, sha256, size_bytes, changelog, published_at, min_launcher_version,
       min_launcher_key, permissions, layers, status, rollout_percent, created_at)
     VALUES (?, ?, ?, ?, 0, ?, 4096, 'Bench release', ?, ?, ?, '[]', '["l3"]', 'published', ?, ?)`,
  );
  // 50 rows a statement: SQLite's statement cost is per statement, so fewer, larger inserts.
  const PER_STATEMENT = 50;
  const insertReports = db.prepare(
    `INSERT INTO plugin_error_reports (plugin_id, plugin_version, reporter, error_type, launcher_version, received_at) VALUES ${Array.from({ length: PER_STATEMENT }, () => "(?, ?, ?, ?, '2.0.0', ?)").join(', ')}`,
  );
  const insertReport = db.prepare(
    `INSERT INTO plugin_error_reports (plugin_id, plugin_version, reporter, error_type, launcher_version, received_at) VALUES (?, ?, ?, ?, '2.0.0', ?)`,
  );
  // A page cache large enough for the whole load (256 MB): the default 2 MB made the transaction
  // spill and re-read index pages, most of the seeding's time in system calls. Put back after.
  const cacheSize = db.pragma('cache_size', { simple: true }) as number;
  db.pragma('cache_size = -262144');
  db.exec('BEGIN');
  return {
    async plugins(rows, createdAt) {
      for (const row of rows) insertPlugin.run(row.id, row.slug, row.slug, createdAt);
    },
    async versions(rows) {
      for (const row of rows)
        insertVersion.run(
          row.id,
          row.pluginId,
          row.version,
          row.versionKey,
          row.sha256,
          row.publishedAt,
          row.minLauncherVersion,
          row.minLauncherKey,
          row.rolloutPercent,
          row.publishedAt,
        );
    },
    async reports(rows) {
      let index = 0;
      const values: string[] = [];
      for (; index + PER_STATEMENT <= rows.length; index += PER_STATEMENT) {
        values.length = 0;
        for (let i = index; i < index + PER_STATEMENT; i += 1) {
          const row = rows[i] as ReportRow;
          values.push(row.pluginId, row.version, row.reporter, row.errorType, row.receivedAt);
        }
        insertReports.run(...values);
      }
      for (; index < rows.length; index += 1) {
        const row = rows[index] as ReportRow;
        insertReport.run(row.pluginId, row.version, row.reporter, row.errorType, row.receivedAt);
      }
    },
    async done() {
      db.exec('COMMIT');
      db.pragma(`cache_size = ${cacheSize}`);
    },
  };
}

function postgresWriter(store: Extract<RegistryStore, { kind: 'postgres' }>): BulkWriter {
  const database = store.database;
  // One statement per batch: unnest() of one array per column, so 10,000 rows are one round trip.
  return {
    async plugins(rows, createdAt) {
      await database.query(
        `INSERT INTO plugins (id, slug, owner_account_id, name, description, created_at)
         SELECT id, slug, 'bench-owner', slug, 'A plugin of the check-updates benchmark', $3 FROM unnest($1::text[], $2::text[]) AS t (id, slug)`,
        [rows.map((row) => row.id), rows.map((row) => row.slug), createdAt],
      );
    },
    async versions(rows) {
      await database.query(
        `INSERT INTO plugin_versions (id, plugin_id, version, version_key, prerelease, sha256, size_bytes, changelog, published_at, min_launcher_version,
           min_launcher_key, permissions, layers, status, rollout_percent, created_at)
         SELECT id, plugin_id, version, version_key, 0, sha256, 4096, 'Bench release', published_at, min_launcher_version, min_launcher_key,
           '[]', '["l3"]', 'published', rollout_percent, published_at
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::int[])
           AS t (id, plugin_id, version, version_key, sha256, published_at, min_launcher_version, min_launcher_key, rollout_percent)`,
        [
          rows.map((row) => row.id),
          rows.map((row) => row.pluginId),
          rows.map((row) => row.version),
          rows.map((row) => row.versionKey),
          rows.map((row) => row.sha256),
          rows.map((row) => row.publishedAt),
          rows.map((row) => row.minLauncherVersion),
          rows.map((row) => row.minLauncherKey),
          rows.map((row) => row.rolloutPercent),
        ],
      );
    },
    async reports(rows) {
      await database.query(
        `INSERT INTO plugin_error_reports (plugin_id, plugin_version, reporter, error_type, launcher_version, received_at)
         SELECT plugin_id, plugin_version, reporter, error_type, '2.0.0', received_at
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) AS t (plugin_id, plugin_version, reporter, error_type, received_at)`,
        [
          rows.map((row) => row.pluginId),
          rows.map((row) => row.version),
          rows.map((row) => row.reporter),
          rows.map((row) => row.errorType),
          rows.map((row) => row.receivedAt),
        ],
      );
    },
    async done() {
      // Fresh statistics, as autovacuum would gather them on a store that has run a while.
      await database.query('ANALYZE');
    },
  };
}

/**
 * Seeds `store` (empty, migrated) with the benchmark's catalog and reports; see the module comment.
 * Plugins and versions go in first, reports after, in batches of 10,000 rows.
 */
export async function seedCheckUpdatesCatalog(store: RegistryStore, options: CheckUpdatesSeedOptions): Promise<CheckUpdatesSeed> {
  const started = performance.now();
  const pluginCount = options.plugins ?? 2_000;
  const installedCount = options.installed ?? 200;
  const reportCount = options.reports ?? 1_000_000;
  const threshold = options.pauseThreshold ?? 10;
  const stride = Math.floor(pluginCount / installedCount);
  if (stride < 2) throw new Error('The catalog needs at least twice as many plugins as are installed');
  const now = options.now.getTime();
  const next = random(18);
  const writer = store.kind === 'sqlite' ? sqliteWriter(store) : postgresWriter(store);

  const plugins: PluginRow[] = Array.from({ length: pluginCount }, (_, index) => ({ id: pluginIdOf(index), slug: `updates-${index}` }));
  const installed: { slug: string; version: string }[] = [];
  const plans = new Map<number, CandidatePlan>();
  let paused = 0;
  let atThreshold = 0;
  let partialRollout = 0;
  let tooNewForLauncher = 0;
  const versions: VersionRow[] = [];
  for (let index = 0; index < pluginCount; index += 1) {
    const plugin = plugins[index] as PluginRow;
    const installedRank = index % stride === 0 ? index / stride : -1;
    const isInstalled = installedRank >= 0 && installedRank < installedCount;
    let rolloutPercent = 100;
    let minLauncherVersion = '1.0.0';
    if (isInstalled) {
      installed.push({ slug: plugin.slug, version: VERSIONS[installedRank % 3] as string });
      if (installedRank % 4 === 1) {
        rolloutPercent = [10, 25, 50][installedRank % 3] as number;
        partialRollout += 1;
      }
      if (installedRank % 40 === 7) {
        minLauncherVersion = '3.0.0';
        tooNewForLauncher += 1;
      }
      let recentNetworks = 1 + (installedRank % 8);
      if (installedRank % 40 === 3 || installedRank % 40 === 23 || installedRank % 40 === 33) {
        recentNetworks = threshold;
        atThreshold += 1;
      } else if (installedRank % 40 === 13 || installedRank % 40 === 29 || installedRank % 40 === 39) {
        recentNetworks = threshold + 1 + (installedRank % 2);
        paused += 1;
      }
      plans.set(index, {
        recent: Array.from({ length: recentNetworks }, (_, n) => networkHash(`candidate-${index}-recent-${n}`)),
        old: Array.from({ length: OLD_WINDOW_NETWORKS }, (_, n) => networkHash(`candidate-${index}-old-${n}`)),
      });
    }
    VERSIONS.forEach((version, position) => {
      const latest = position === LATEST;
      const minimum = latest ? minLauncherVersion : '1.0.0';
      versions.push({
        id: `v-${index}-${position}`,
        pluginId: plugin.id,
        version,
        versionKey: versionOrder(version).key,
        sha256: createHash('sha256').update(`${plugin.id}@${version}`).digest('hex'),
        minLauncherVersion: minimum,
        minLauncherKey: versionOrder(minimum).key,
        rolloutPercent: latest ? rolloutPercent : 100,
        publishedAt: new Date(now - (30 - position * 5) * 24 * HOUR).toISOString(),
      });
    });
  }
  const createdAt = new Date(now - 60 * 24 * HOUR).toISOString();
  for (let index = 0; index < plugins.length; index += BATCH) await writer.plugins(plugins.slice(index, index + BATCH), createdAt);
  for (let index = 0; index < versions.length; index += BATCH) await writer.versions(versions.slice(index, index + BATCH));

  const globalNetworks = Array.from({ length: GLOBAL_NETWORKS }, (_, n) => networkHash(`network-${n}`));
  const retention = 48 * HOUR - 60_000; // a minute inside retention, so the start-up purge keeps every row
  let batch: ReportRow[] = [];
  // Every recent network of a candidate reports once in the last hour, so the counts are exact.
  for (const [index, plan] of plans) {
    for (const reporter of plan.recent) {
      batch.push({
        pluginId: pluginIdOf(index),
        version: VERSIONS[LATEST] as string,
        reporter,
        errorType: 'launch_crash',
        receivedAt: new Date(now - next() * HOUR).toISOString(),
      });
    }
  }
  for (let written = batch.length; written < reportCount; written += 1) {
    const index = Math.min(pluginCount - 1, Math.floor(pluginCount * next() ** 2));
    const versionPosition = next() < 0.6 ? LATEST : Math.floor(next() * LATEST);
    const age = next() * retention;
    const plan = versionPosition === LATEST ? plans.get(index) : undefined;
    let reporter: string;
    if (plan) {
      // Older than 24 hours at seeding is older still when the benchmark asks: never in the window.
      const pool = age < 24 * HOUR ? plan.recent : plan.old;
      reporter = pool[Math.floor(next() * pool.length)] as string;
    } else {
      reporter = globalNetworks[Math.floor(next() * GLOBAL_NETWORKS)] as string;
    }
    batch.push({
      pluginId: pluginIdOf(index),
      version: VERSIONS[versionPosition] as string,
      reporter,
      errorType: ERROR_TYPES[written % ERROR_TYPES.length] as string,
      receivedAt: new Date(now - age).toISOString(),
    });
    if (batch.length === BATCH) {
      await writer.reports(batch);
      batch = [];
    }
  }
  if (batch.length > 0) await writer.reports(batch);
  await writer.done();
  return {
    launcherVersion: LAUNCHER_VERSION,
    installed,
    plugins: pluginCount,
    versions: versions.length,
    reports: reportCount,
    paused,
    atThreshold,
    partialRollout,
    tooNewForLauncher,
    expectedUpdates: installed.length - paused - tooNewForLauncher,
    seedMs: performance.now() - started,
  };
}
