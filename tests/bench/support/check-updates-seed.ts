/**
 * The telemetry and update candidates of the check-updates benchmark (issue 18: 200 installed
 * plugins, 1,000,000 stored error reports), added to a catalog that `registry-bench-server.ts`
 * seeded (`seedBenchCatalog`: every plugin has published releases `1.0.0` to at least `1.2.0`).
 * Written straight into the store with bulk SQL (multi-row inserts in one transaction on SQLite,
 * `unnest` batches on PostgreSQL), through the database's own triggers, so seeding takes seconds;
 * deterministic (a seeded pseudo-random sequence), so every run and both stores hold the same rows.
 *
 * - The installed set: every `plugins / installed`-th plugin, at `1.0.0` or `1.1.0`; its candidate
 *   is its latest published version (read back with `latestPublishedOf`). A quarter of the
 *   candidates roll out to 10, 25 or 50 %; five need a newer launcher than the benchmark's.
 * - `reports` reports spread evenly over the 48-hour retention, over plugins with a skew (popular
 *   plugins get most: plugin `floor(n * u^2)` for uniform `u`) and versions (60 % the latest).
 *   Older versions and other plugins are reported from a pool of 200,000 networks. A candidate's
 *   reports of the last 24 hours come from a handful of networks (one to eight, many reports each),
 *   older ones from a wider pool the window no longer sees; 15 candidates sit at exactly the
 *   threshold (offered) and 15 just above it (withheld).
 *
 * - The running pool: `running` other plugins at their latest version (no update to offer). The
 *   benchmark adds a different slice of them to each request, so that check-updates records which
 *   versions each network runs (decisions section 12) on every request, as launchers of many
 *   networks with different plugins make it do.
 *
 * Reporter values stand for the intake's salted network hashes (43 base64url characters).
 */
import { createHash } from 'node:crypto';
import { versionOrder, type CatalogVersion, type RegistryStore } from '@plughost/registry';

/** Options of {@link seedCheckUpdates}. */
export interface CheckUpdatesSeedOptions {
  /** Installed plugins the request lists (default 200). */
  readonly installed?: number;
  /** Error reports stored (default 1,000,000). */
  readonly reports?: number;
  /** The pause threshold the near misses are built around (default 10). */
  readonly pauseThreshold?: number;
  /** Plugins of the running pool (default, and at most, `installed`). */
  readonly running?: number;
}

/** What was seeded, and the request the benchmark sends. */
export interface CheckUpdatesSeed {
  readonly launcherVersion: string;
  readonly installed: readonly { readonly slug: string; readonly version: string }[];
  /** Plugins that are not in `installed`, each at its latest version: installed without an update to offer. */
  readonly running: readonly { readonly slug: string; readonly version: string }[];
  readonly reports: number;
  /** Candidates whose reporters in the window exceed the threshold (withheld). */
  readonly paused: number;
  /** Candidates at exactly the threshold (offered). */
  readonly atThreshold: number;
  /** Candidates that a partial rollout limits (still listed: the launcher applies the rollout). */
  readonly partialRollout: number;
  /** Candidates the launcher is too old for. */
  readonly tooNewForLauncher: number;
  /** Items an answer holds: installed minus withheld minus too new. */
  readonly expectedUpdates: number;
  /** Milliseconds the reports and candidate changes took to write. */
  readonly seedMs: number;
}

/** The slugs and manifest ids of the catalog the reports go to (`registry-bench-server.ts`). */
export interface SeededCatalog {
  readonly plugins: number;
  pluginId(index: number): string;
  slug(index: number): string;
}

/** Releases every seeded plugin has; a plugin's latest is read back from the store. */
const COMMON_RELEASES: readonly string[] = ['1.0.0', '1.1.0', '1.2.0'];
const HOUR = 3_600_000;
const GLOBAL_NETWORKS = 200_000;
const OLD_WINDOW_NETWORKS = 40;
const BATCH = 10_000;
const LAUNCHER_VERSION = '2.0.0';
const TOO_NEW = '3.0.0';
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

interface Candidate {
  readonly version: CatalogVersion;
  /** Networks that report it in the last 24 hours. */
  readonly recent: readonly string[];
  /** Networks that reported it 24 to 48 hours ago only. */
  readonly old: readonly string[];
}

interface ReportRow {
  pluginId: string;
  version: string;
  reporter: string;
  errorType: string;
  receivedAt: string;
}

interface CandidateChange {
  readonly versionId: string;
  readonly rolloutPercent: number;
  readonly minLauncherVersion: string;
}

/** Writes rows in batches, inside one transaction on SQLite. */
interface BulkWriter {
  candidates(changes: readonly CandidateChange[]): Promise<void>;
  reports(rows: readonly ReportRow[]): Promise<void>;
  done(): Promise<void>;
}

function sqliteWriter(store: Extract<RegistryStore, { kind: 'sqlite' }>): BulkWriter {
  const db = store.database.db;
  const changeCandidate = db.prepare(`UPDATE plugin_versions SET rollout_percent = ?, min_launcher_version = ?, min_launcher_key = ? WHERE id = ?`);
  // 50 rows a statement: SQLite's cost is largely per statement, so fewer, larger inserts.
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
    async candidates(changes) {
      for (const change of changes)
        changeCandidate.run(change.rolloutPercent, change.minLauncherVersion, versionOrder(change.minLauncherVersion).key, change.versionId);
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
      db.exec('ANALYZE');
    },
  };
}

function postgresWriter(store: Extract<RegistryStore, { kind: 'postgres' }>): BulkWriter {
  const database = store.database;
  // One statement per batch: unnest() of one array per column, so 10,000 rows are one round trip.
  return {
    async candidates(changes) {
      await database.query(
        `UPDATE plugin_versions v SET rollout_percent = c.rollout_percent, min_launcher_version = c.min_launcher_version, min_launcher_key = c.min_launcher_key
         FROM unnest($1::text[], $2::int[], $3::text[], $4::text[]) AS c (id, rollout_percent, min_launcher_version, min_launcher_key) WHERE v.id = c.id`,
        [
          changes.map((change) => change.versionId),
          changes.map((change) => change.rolloutPercent),
          changes.map((change) => change.minLauncherVersion),
          changes.map((change) => versionOrder(change.minLauncherVersion).key),
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
      // Statistics and the visibility map, as autovacuum would have left them on a store that ran
      // a while (without the map, no index-only scan: every index entry fetched its table row).
      await database.query('VACUUM ANALYZE plugin_versions, plugin_error_reports, plugin_version_reporters');
    },
  };
}

/**
 * Adds the benchmark's update candidates and reports (see the module comment) to `catalog`, which
 * `store` holds already, for a registry whose clock reads `now`.
 */
export async function seedCheckUpdates(
  store: RegistryStore,
  catalog: SeededCatalog,
  options: CheckUpdatesSeedOptions & { readonly now: Date },
): Promise<CheckUpdatesSeed> {
  const started = performance.now();
  const installedCount = options.installed ?? 200;
  const reportCount = options.reports ?? 1_000_000;
  const threshold = options.pauseThreshold ?? 10;
  const stride = Math.floor(catalog.plugins / installedCount);
  if (stride < 2) throw new Error('The catalog needs at least twice as many plugins as are installed');
  const now = options.now.getTime();
  const next = random(18);
  const writer = store.kind === 'sqlite' ? sqliteWriter(store) : postgresWriter(store);

  const installedSlugs = Array.from({ length: installedCount }, (_, rank) => catalog.slug(rank * stride));
  const latest = await store.catalog.latestPublishedOf(installedSlugs);
  const installed: { slug: string; version: string }[] = [];
  const candidates = new Map<number, Candidate>();
  const changes: CandidateChange[] = [];
  let paused = 0;
  let atThreshold = 0;
  let partialRollout = 0;
  let tooNewForLauncher = 0;
  for (let rank = 0; rank < installedCount; rank += 1) {
    const index = rank * stride;
    const slug = installedSlugs[rank] as string;
    const version = latest.get(slug);
    if (!version || version.version === '1.0.0' || version.version === '1.1.0') throw new Error(`The bench catalog's ${slug} has no release above 1.1.0`);
    installed.push({ slug, version: COMMON_RELEASES[rank % 2] as string });
    let rolloutPercent = 100;
    let minLauncherVersion = version.minLauncherVersion;
    if (rank % 4 === 1) {
      rolloutPercent = [10, 25, 50][rank % 3] as number;
      partialRollout += 1;
    }
    let recentNetworks = 1 + (rank % 8);
    if (rank % 40 === 7) {
      minLauncherVersion = TOO_NEW;
      tooNewForLauncher += 1;
    } else if (rank % 40 === 3 || rank % 40 === 23 || rank % 40 === 33) {
      recentNetworks = threshold;
      atThreshold += 1;
    } else if (rank % 40 === 13 || rank % 40 === 29 || rank % 40 === 39) {
      recentNetworks = threshold + 1 + (rank % 2);
      paused += 1;
    }
    if (rolloutPercent !== 100 || minLauncherVersion !== version.minLauncherVersion)
      changes.push({ versionId: version.id, rolloutPercent, minLauncherVersion });
    candidates.set(index, {
      version,
      recent: Array.from({ length: recentNetworks }, (_, n) => networkHash(`candidate-${index}-recent-${n}`)),
      old: Array.from({ length: OLD_WINDOW_NETWORKS }, (_, n) => networkHash(`candidate-${index}-old-${n}`)),
    });
  }
  await writer.candidates(changes);

  // The running pool: the plugins just after installed ones, which are never installed themselves.
  const runningSlugs = Array.from({ length: Math.min(options.running ?? installedCount, installedCount) }, (_, rank) => catalog.slug(rank * stride + 1));
  const runningLatest = await store.catalog.latestPublishedOf(runningSlugs);
  const running = runningSlugs.map((slug) => ({ slug, version: (runningLatest.get(slug) as CatalogVersion).version }));

  const globalNetworks = Array.from({ length: GLOBAL_NETWORKS }, (_, n) => networkHash(`network-${n}`));
  const retention = 48 * HOUR - 60_000; // a minute inside retention, so the start-up purge keeps every row
  let batch: ReportRow[] = [];
  // Every recent network of a candidate reports once in the last hour, so the counts are exact.
  for (const [index, candidate] of candidates) {
    for (const reporter of candidate.recent) {
      batch.push({
        pluginId: catalog.pluginId(index),
        version: candidate.version.version,
        reporter,
        errorType: 'launch_crash',
        receivedAt: new Date(now - next() * HOUR).toISOString(),
      });
    }
  }
  for (let written = batch.length; written < reportCount; written += 1) {
    const index = Math.min(catalog.plugins - 1, Math.floor(catalog.plugins * next() ** 2));
    const candidate = candidates.get(index);
    const toLatest = next() < 0.6;
    const age = next() * retention;
    let version: string;
    let reporter: string;
    if (toLatest && candidate) {
      version = candidate.version.version;
      // Older than 24 hours at seeding is older still when the benchmark asks: never in the window.
      const pool = age < 24 * HOUR ? candidate.recent : candidate.old;
      reporter = pool[Math.floor(next() * pool.length)] as string;
    } else {
      version = toLatest ? (COMMON_RELEASES[2] as string) : (COMMON_RELEASES[Math.floor(next() * 2)] as string);
      reporter = globalNetworks[Math.floor(next() * GLOBAL_NETWORKS)] as string;
    }
    batch.push({
      pluginId: catalog.pluginId(index),
      version,
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
    running,
    reports: reportCount,
    paused,
    atThreshold,
    partialRollout,
    tooNewForLauncher,
    expectedUpdates: installed.length - paused - tooNewForLauncher,
    seedMs: Math.round(performance.now() - started),
  };
}
