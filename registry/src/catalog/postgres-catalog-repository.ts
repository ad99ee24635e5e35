import { randomBytes } from 'node:crypto';
import { RegistryError, invalidArgument, notFound } from '../errors/registry-error.js';
import type { SqlScope } from '../storage/postgres-database.js';
import {
  REPORTER_REKEY_WINDOW_MS,
  checkSlug,
  checkStatus,
  listFilters,
  newVersionRow,
  normalizedTags,
  requireRolloutPercent,
  sortOf,
  versionExists,
  type NewVersionRow,
} from './catalog-input.js';
import type { CatalogRepository, PausesWithRevision, RankedVersion } from './catalog-repository.js';
import { liftAuditRow, pausedVersionOf, pauseStateOf, type PausedVersionRow, type PauseStateRow } from './pause-rows.js';
import {
  PLUGIN_COLUMNS,
  VERSION_COLUMNS,
  pendingVersionOf,
  pluginOf,
  publishedPluginOf,
  reviewOf,
  versionOf,
  type PendingVersionRow,
  type PluginRow,
  type PublishedPluginRow,
  type ReviewRow,
  type VersionRow,
} from './catalog-rows.js';
import type {
  CatalogPlugin,
  CatalogVersion,
  ErrorReport,
  InstallRecord,
  NewPauseLift,
  NewPlugin,
  NewReview,
  NewVersion,
  PausedVersion,
  PauseRule,
  PauseState,
  PendingVersion,
  PluginChanges,
  PluginListPage,
  PluginListQuery,
  PluginStats,
  PublishedPlugin,
  ReporterSalts,
  Review,
  ReviewPage,
  VersionRef,
  VersionStatus,
} from './catalog-types.js';
import { POSTGRES_PUBLISHED_COUNT_SQL, postgresPublishedPageSql, postgresPublishedPluginBy } from './postgres-plugin-list.js';

const VERSIONS_OF_SLUG = `SELECT ${VERSION_COLUMNS} FROM plugin_versions v JOIN plugins p ON p.id = v.plugin_id WHERE p.slug = $1`;
const PLUGIN_BY_ID = `SELECT ${PLUGIN_COLUMNS} FROM plugins p WHERE p.id = $1`;
const PLUGIN_BY_SLUG = `SELECT ${PLUGIN_COLUMNS} FROM plugins p WHERE p.slug = $1`;
// `RETURNING` of an UPDATE cannot use the alias `v`: the same columns, unqualified.
const VERSION_RETURNING = VERSION_COLUMNS.replace(/\bv\./g, '');

/** The status change of a review or an admin: `published_at` is set the first time only. */
const SET_STATUS = `UPDATE plugin_versions
  SET status = $2,
      published_at = CASE WHEN $2 = 'published' THEN COALESCE(published_at, $3) ELSE published_at END,
      review_note = CASE WHEN $4 THEN $5 ELSE review_note END
  WHERE id = $1`;

/**
 * The pause count of `CatalogRepository.countRecentReporters`: a range of
 * `plugin_version_reporters_recent`, one entry per reporter in the window (migration
 * `004-update-checks`).
 */
const COUNT_RECENT_REPORTERS = `SELECT COUNT(*)::int AS total FROM plugin_version_reporters
  WHERE plugin_id = $1 AND plugin_version = $2 AND last_report_at >= $3`;

/** The installed base of the version `c.plugin_id`, `c.version`: its largest daily count of running networks since `$4`. */
const INSTALLED_BASE_OF_CANDIDATE = `COALESCE((
  SELECT MAX(i.networks) FROM plugin_version_install_counts i
  WHERE i.plugin_id = c.plugin_id AND i.plugin_version = c.version AND i.day >= $4), 0)`;

/**
 * The pause decisions of a check-updates (see `ROLLOUT_PAUSES_SQL` of the SQLite twin): for each
 * candidate, whether its reporters since `$3` are more than the largest of the threshold `$5`,
 * `$6` % of its installed base rounded up and twice the reporters of its latest lift, as one array
 * in the order of the candidates (one row to parse instead of one per candidate). The
 * `$5 + 1`-th reporter is looked for first; only past it are the rest read.
 */
const PAUSES_ARRAY = `ARRAY(
  SELECT CASE
    WHEN (
      SELECT 1 FROM plugin_version_reporters r
      WHERE r.plugin_id = c.plugin_id AND r.plugin_version = c.version AND r.last_report_at >= $3
      ORDER BY r.last_report_at LIMIT 1 OFFSET $5
    ) IS NULL THEN false
    ELSE (
      SELECT COUNT(*) FROM plugin_version_reporters r
      WHERE r.plugin_id = c.plugin_id AND r.plugin_version = c.version AND r.last_report_at >= $3
    ) > GREATEST(
      $5::bigint,
      (${INSTALLED_BASE_OF_CANDIDATE} * $6::bigint + 99) / 100,
      COALESCE((SELECT 2 * l.reporters FROM rollout_pause_lifts l WHERE l.plugin_id = c.plugin_id AND l.plugin_version = c.version), 0)
    )
  END
  FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS c (plugin_id, version, position)
  ORDER BY c.position
)`;
export const ROLLOUT_PAUSES = `SELECT ${PAUSES_ARRAY} AS paused`;
/** {@link ROLLOUT_PAUSES} with the catalog revision of the same snapshot. */
const ROLLOUT_PAUSES_WITH_REVISION = `SELECT COALESCE((SELECT revision::float8 FROM catalog_revision WHERE id = 1), -1) AS revision, ${PAUSES_ARRAY} AS paused`;

/** The reporters since `$3`, installed base since `$4` and latest lift of the version `$1`, `$2`. */
const PAUSE_STATE = `
SELECT (
    SELECT COUNT(*)::int FROM plugin_version_reporters r
    WHERE r.plugin_id = c.plugin_id AND r.plugin_version = c.version AND r.last_report_at >= $3
  ) AS reporters,
  ${INSTALLED_BASE_OF_CANDIDATE} AS installed_base,
  l.lifted_at, l.lifted_by, l.reason, l.reporters AS lift_reporters
FROM (SELECT $1::text COLLATE "C" AS plugin_id, $2::text COLLATE "C" AS version) c
LEFT JOIN rollout_pause_lifts l ON l.plugin_id = c.plugin_id AND l.plugin_version = c.version`;

/**
 * The networks `$2` listed on day `$1` (the versions in `$3` and `$4`, in key order, so that two
 * instances recording overlapping lists wait for each other in one order and never deadlock),
 * and, from the rows this statement inserted, the day's count of each version: one statement,
 * so a count grows exactly by the networks that are new.
 */
const RECORD_INSTALLS = `
WITH added AS (
  INSERT INTO plugin_version_installs (day, network, plugin_id, plugin_version)
  SELECT $1, $2, v.plugin_id, v.version FROM unnest($3::text[], $4::text[]) AS v (plugin_id, version) ORDER BY v.plugin_id, v.version
  ON CONFLICT DO NOTHING
  RETURNING plugin_id, plugin_version
)
INSERT INTO plugin_version_install_counts AS counts (plugin_id, plugin_version, day, networks)
SELECT plugin_id, plugin_version, $1, COUNT(*) FROM added GROUP BY plugin_id, plugin_version ORDER BY plugin_id, plugin_version
ON CONFLICT (plugin_id, plugin_version, day) DO UPDATE SET networks = counts.networks + EXCLUDED.networks`;

/**
 * The latest published version of each slug of `$1` (see `latestPublished`): for each plugin, the
 * highest release, else the highest pre-release, each a backward scan of `plugin_versions_latest`
 * that stops at its first row (`Append` under `LIMIT 1` never starts the second branch when the
 * first found one); each row is read once, with no second lookup by id.
 */
export const LATEST_PUBLISHED_OF = `
SELECT ${VERSION_COLUMNS}, v.version_key, v.min_launcher_key, p.slug AS candidate_slug
FROM plugins p
CROSS JOIN LATERAL (
  (SELECT * FROM plugin_versions l WHERE l.plugin_id = p.id AND l.status = 'published' AND l.prerelease = 0 ORDER BY l.version_key DESC LIMIT 1)
  UNION ALL
  (SELECT * FROM plugin_versions l WHERE l.plugin_id = p.id AND l.status = 'published' AND l.prerelease = 1 ORDER BY l.version_key DESC LIMIT 1)
  LIMIT 1
) v
WHERE p.slug = ANY($1::text[])`;

type RankedVersionRow = VersionRow & { version_key: string; min_launcher_key: string; candidate_slug: string };

function rankedVersionOf(row: RankedVersionRow): RankedVersion {
  return { ...versionOf(row), versionKey: row.version_key, minLauncherKey: row.min_launcher_key };
}

const PAUSED_VERSIONS = `
SELECT r.plugin_id, p.slug, r.plugin_version, v.id AS version_id, COUNT(DISTINCT r.reporter)::int AS reporters, COUNT(*)::int AS reports,
  MAX(r.received_at) AS last_report_at,
  COALESCE((
    SELECT MAX(i.networks) FROM plugin_version_install_counts i
    WHERE i.plugin_id = r.plugin_id AND i.plugin_version = r.plugin_version AND i.day >= $3), 0) AS installed_base,
  l.lifted_at, l.lifted_by, l.reason, l.reporters AS lift_reporters
FROM plugin_error_reports r
JOIN plugins p ON p.id = r.plugin_id
JOIN plugin_versions v ON v.plugin_id = r.plugin_id AND v.version = r.plugin_version
LEFT JOIN rollout_pause_lifts l ON l.plugin_id = r.plugin_id AND l.plugin_version = r.plugin_version
WHERE r.received_at >= $1
GROUP BY r.plugin_id, p.slug, r.plugin_version, v.id, l.lifted_at, l.lifted_by, l.reason, l.reporters
HAVING COUNT(DISTINCT r.reporter) > $2
ORDER BY reporters DESC, r.plugin_id, r.plugin_version`;

type ListRow = PublishedPluginRow & { total: number };

/** The parameters of {@link ROLLOUT_PAUSES}: ids, versions, since, base days, threshold and base percent. */
function pauseParameters(candidates: readonly VersionRef[], rule: PauseRule): unknown[] {
  return [
    candidates.map((candidate) => candidate.pluginId),
    candidates.map((candidate) => candidate.version),
    rule.since,
    rule.baseFromDay,
    rule.threshold,
    rule.basePercent,
  ];
}

/**
 * The catalog in PostgreSQL, the twin of `SqliteCatalogRepository` (same answers, same errors;
 * see it for what "latest" means). Each write is one statement or one transaction; where two
 * registry instances may race (two uploads of one version, two reviewers), the database's unique
 * constraints and conditional updates decide, not a read before the write. The migrations
 * (`POSTGRES_CATALOG_MIGRATIONS`) run when the store opens, not here.
 *
 * @example
 * ```ts
 * const catalog = new PostgresCatalogRepository(database); // a migrated PostgresDatabase
 * const page = await catalog.listPublished({ q: 'map', page: 1, pageSize: 20 });
 * ```
 */
export class PostgresCatalogRepository implements CatalogRepository {
  constructor(private readonly scope: SqlScope) {}

  /** The same repository inside a transaction of `scope` (for an upload that writes beside it). */
  within(scope: SqlScope): PostgresCatalogRepository {
    return new PostgresCatalogRepository(scope);
  }

  async listPublished(query: PluginListQuery): Promise<PluginListPage> {
    const filters = listFilters(query);
    const parameters = [filters.pattern, filters.category, filters.tags, filters.launcherKey];
    const offset = (query.page - 1) * query.pageSize;
    const { rows } = await this.scope.query<ListRow>(postgresPublishedPageSql(sortOf(query)), [...parameters, query.pageSize, offset]);
    if (rows.length > 0) return { total: rows[0]?.total ?? 0, items: rows.map(publishedPluginOf) };
    const total = offset === 0 ? 0 : ((await this.one<{ total: number }>(POSTGRES_PUBLISHED_COUNT_SQL, parameters))?.total ?? 0);
    return { total, items: [] };
  }

  async catalogRevision(): Promise<number> {
    return (await this.one<{ revision: number }>('SELECT revision::float8 AS revision FROM catalog_revision WHERE id = 1'))?.revision ?? -1;
  }

  async countPublished(): Promise<number> {
    const row = await this.one<{ total: number }>(
      `SELECT COUNT(*)::int AS total FROM plugins p WHERE EXISTS (SELECT 1 FROM plugin_versions v WHERE v.plugin_id = p.id AND v.status = 'published')`,
    );
    return row?.total ?? 0;
  }

  async getPublishedBySlug(slug: string): Promise<PublishedPlugin | null> {
    const row = await this.one<PublishedPluginRow>(postgresPublishedPluginBy('slug'), [slug]);
    return row ? publishedPluginOf(row) : null;
  }

  async getPublishedById(id: string): Promise<PublishedPlugin | null> {
    const row = await this.one<PublishedPluginRow>(postgresPublishedPluginBy('id'), [id]);
    return row ? publishedPluginOf(row) : null;
  }

  async publishedVersions(slug: string): Promise<CatalogVersion[]> {
    return (await this.all<VersionRow>(`${VERSIONS_OF_SLUG} AND v.status = 'published' ORDER BY v.version_key DESC`, [slug])).map(versionOf);
  }

  async latestPublished(slug: string): Promise<CatalogVersion | null> {
    const row = await this.one<VersionRow>(`${VERSIONS_OF_SLUG} AND v.status = 'published' ORDER BY v.prerelease ASC, v.version_key DESC LIMIT 1`, [slug]);
    return row ? versionOf(row) : null;
  }

  async publishedVersion(slug: string, version: string): Promise<CatalogVersion | null> {
    const found = await this.version(slug, version);
    return found?.status === 'published' ? found : null;
  }

  async latestPublishedOf(slugs: readonly string[]): Promise<Map<string, RankedVersion>> {
    const latest = new Map<string, RankedVersion>();
    if (slugs.length === 0) return latest;
    for (const row of await this.all<RankedVersionRow>(LATEST_PUBLISHED_OF, [slugs])) latest.set(row.candidate_slug, rankedVersionOf(row));
    return latest;
  }

  async getPlugin(id: string): Promise<CatalogPlugin | null> {
    const row = await this.one<PluginRow>(PLUGIN_BY_ID, [id]);
    return row ? pluginOf(row) : null;
  }

  async getPluginBySlug(slug: string): Promise<CatalogPlugin | null> {
    const row = await this.one<PluginRow>(PLUGIN_BY_SLUG, [slug]);
    return row ? pluginOf(row) : null;
  }

  async version(slug: string, version: string): Promise<CatalogVersion | null> {
    const row = await this.one<VersionRow>(`${VERSIONS_OF_SLUG} AND v.version = $2`, [slug, version]);
    return row ? versionOf(row) : null;
  }

  async versionById(id: string): Promise<CatalogVersion | null> {
    const row = await this.one<VersionRow>(`SELECT ${VERSION_COLUMNS} FROM plugin_versions v WHERE v.id = $1`, [id]);
    return row ? versionOf(row) : null;
  }

  async versionsOf(pluginId: string): Promise<CatalogVersion[]> {
    const rows = await this.all<VersionRow>(
      `SELECT ${VERSION_COLUMNS} FROM plugin_versions v WHERE v.plugin_id = $1 ORDER BY v.created_at DESC, v.version_key DESC`,
      [pluginId],
    );
    return rows.map(versionOf);
  }

  async pluginsOwnedBy(accountId: string): Promise<CatalogPlugin[]> {
    return (await this.all<PluginRow>(`SELECT ${PLUGIN_COLUMNS} FROM plugins p WHERE p.owner_account_id = $1 ORDER BY p.slug`, [accountId])).map(pluginOf);
  }

  async listPending(): Promise<PendingVersion[]> {
    const rows = await this.all<PendingVersionRow>(
      `SELECT ${VERSION_COLUMNS}, p.slug, p.name AS plugin_name, p.owner_account_id
       FROM plugin_versions v JOIN plugins p ON p.id = v.plugin_id
       WHERE v.status = 'pending_review' ORDER BY v.created_at ASC`,
    );
    return rows.map(pendingVersionOf);
  }

  async createPlugin(plugin: NewPlugin): Promise<CatalogPlugin> {
    checkSlug(plugin.slug);
    const created = await this.insertPlugin(plugin);
    if (created) return created;
    if (await this.one(PLUGIN_BY_ID, [plugin.id])) throw new RegistryError('plugin_id_taken', `The plugin id ${plugin.id} exists already`);
    throw new RegistryError('slug_taken', `The slug ${plugin.slug} is taken`);
  }

  /**
   * The plugin record of `plugin.id` when `plugin.ownerAccountId` owns it, else creates it (an
   * upload's first step, inside its transaction). A concurrent creation of the same id waits for
   * the other transaction and then reads its record.
   *
   * @throws RegistryError `plugin_id_taken` (another account owns the id), `slug_taken`.
   */
  async claimPlugin(plugin: NewPlugin): Promise<CatalogPlugin> {
    checkSlug(plugin.slug);
    const created = await this.insertPlugin(plugin);
    if (created) return created;
    const existing = await this.getPlugin(plugin.id);
    if (existing === null) throw new RegistryError('slug_taken', `The slug ${plugin.slug} is taken`);
    if (existing.ownerAccountId !== plugin.ownerAccountId) throw new RegistryError('plugin_id_taken', `The plugin id ${plugin.id} belongs to another account`);
    return existing;
  }

  /** Inserts the plugin; `null` when its id or slug exists (nothing written). */
  private async insertPlugin(plugin: NewPlugin): Promise<CatalogPlugin | null> {
    const row = await this.one<PluginRow>(
      `INSERT INTO plugins (id, slug, owner_account_id, name, description, category, tags, icon_url, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9)
       ON CONFLICT DO NOTHING
       RETURNING ${PLUGIN_COLUMNS.replace(/\bp\./g, '')}`,
      [
        plugin.id,
        plugin.slug,
        plugin.ownerAccountId,
        plugin.name,
        plugin.description ?? '',
        plugin.category ?? null,
        JSON.stringify(normalizedTags(plugin.tags)),
        plugin.iconUrl ?? null,
        plugin.createdAt,
      ],
    );
    return row ? pluginOf(row) : null;
  }

  async updatePlugin(id: string, changes: PluginChanges): Promise<CatalogPlugin> {
    return this.scope.transaction(async (scope) => {
      const row = (await scope.query<PluginRow>(`${PLUGIN_BY_ID} FOR UPDATE`, [id])).rows[0];
      if (!row) throw notFound(`No plugin ${id}`);
      const current = pluginOf(row);
      await scope.query(`UPDATE plugins SET name = $2, description = $3, category = $4, tags = $5::jsonb, icon_url = $6 WHERE id = $1`, [
        id,
        changes.name ?? current.name,
        changes.description ?? current.description,
        changes.category === undefined ? current.category : changes.category,
        JSON.stringify(changes.tags === undefined ? current.tags : normalizedTags(changes.tags)),
        changes.iconUrl === undefined ? current.iconUrl : changes.iconUrl,
      ]);
      return this.within(scope).requirePlugin(id);
    });
  }

  async addVersion(version: NewVersion): Promise<CatalogVersion> {
    const row = newVersionRow(version);
    const plugin = await this.requirePlugin(row.pluginId);
    return this.insertVersion(plugin, row);
  }

  /** {@link addVersion} of an upload, inside its transaction, for the plugin it claimed. */
  async addVersionTo(plugin: CatalogPlugin, version: Omit<NewVersion, 'pluginId'>): Promise<CatalogVersion> {
    return this.insertVersion(plugin, newVersionRow({ ...version, pluginId: plugin.id }));
  }

  private async insertVersion(plugin: CatalogPlugin, row: NewVersionRow): Promise<CatalogVersion> {
    // Both UNIQUE (plugin_id, version) and UNIQUE (plugin_id, version_key) end in "nothing
    // inserted"; a concurrent upload of the same version waits for the other one's transaction.
    const inserted = await this.one<VersionRow>(
      `INSERT INTO plugin_versions (id, plugin_id, version, version_key, prerelease, sha256, size_bytes, changelog, published_at,
         min_launcher_version, min_launcher_key, permissions, layers, status, rollout_percent, signer_key_id, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb, $13::jsonb, $14, $15, $16, $17)
       ON CONFLICT DO NOTHING
       RETURNING ${VERSION_RETURNING}`,
      [
        row.id,
        plugin.id,
        row.version,
        row.versionKey,
        row.prerelease,
        row.sha256,
        row.sizeBytes,
        row.changelog,
        row.publishedAt,
        row.minLauncherVersion,
        row.minLauncherKey,
        row.permissions,
        row.layers,
        row.status,
        row.rolloutPercent,
        row.signerKeyId,
        row.createdAt,
      ],
    );
    if (inserted) return versionOf(inserted);
    const same = await this.one<{ version: string }>(`SELECT version FROM plugin_versions WHERE plugin_id = $1 AND (version_key = $2 OR version = $3)`, [
      plugin.id,
      row.versionKey,
      row.version,
    ]);
    throw versionExists(plugin.slug, row.version, same?.version ?? row.version);
  }

  async setVersionStatus(
    versionId: string,
    status: VersionStatus,
    change: { readonly at: string; readonly reviewNote?: string | null },
  ): Promise<CatalogVersion> {
    checkStatus(status);
    const row = await this.one<VersionRow>(`${SET_STATUS} RETURNING ${VERSION_RETURNING}`, [
      versionId,
      status,
      change.at,
      change.reviewNote !== undefined,
      change.reviewNote ?? null,
    ]);
    if (!row) throw notFound(`No version ${versionId}`);
    return versionOf(row);
  }

  async decideReview(
    versionId: string,
    status: Exclude<VersionStatus, 'pending_review'>,
    change: { readonly at: string; readonly reviewNote?: string | null },
  ): Promise<CatalogVersion | null> {
    checkStatus(status);
    // The condition on the current status makes the decision atomic: of two reviewers deciding
    // at once, one finds the version no longer pending.
    const row = await this.one<VersionRow>(`${SET_STATUS} AND status = 'pending_review' RETURNING ${VERSION_RETURNING}`, [
      versionId,
      status,
      change.at,
      change.reviewNote !== undefined,
      change.reviewNote ?? null,
    ]);
    return row ? versionOf(row) : null;
  }

  async setRolloutPercent(versionId: string, rolloutPercent: number): Promise<CatalogVersion> {
    requireRolloutPercent(rolloutPercent);
    const row = await this.one<VersionRow>(`UPDATE plugin_versions SET rollout_percent = $2 WHERE id = $1 RETURNING ${VERSION_RETURNING}`, [
      versionId,
      rolloutPercent,
    ]);
    if (!row) throw notFound(`No version ${versionId}`);
    return versionOf(row);
  }

  async addReport(report: ErrorReport): Promise<void> {
    const { previousReporter, ...row } = report;
    await this.scope.transaction(async (scope) => {
      if (previousReporter !== undefined && previousReporter !== row.reporter) {
        const since = new Date(Date.parse(row.receivedAt) - REPORTER_REKEY_WINDOW_MS).toISOString();
        await scope.query(
          `UPDATE plugin_error_reports SET reporter = $5
           WHERE plugin_id = $1 AND plugin_version = $2 AND received_at >= $3 AND reporter = $4`,
          [row.pluginId, row.pluginVersion, since, previousReporter, row.reporter],
        );
      }
      await scope.query(
        `INSERT INTO plugin_error_reports (plugin_id, plugin_version, reporter, error_type, launcher_version, received_at)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [row.pluginId, row.pluginVersion, row.reporter, row.errorType, row.launcherVersion, row.receivedAt],
      );
    });
  }

  async reporterSalts(day: string, previousDay: string): Promise<ReporterSalts> {
    return this.scope.transaction(async (scope) => {
      await scope.query('DELETE FROM telemetry_salts WHERE day < $1', [previousDay]);
      // Two instances creating the day's salt at once: the second waits and keeps the first's.
      await scope.query('INSERT INTO telemetry_salts (day, salt) VALUES ($1, $2) ON CONFLICT (day) DO NOTHING', [day, randomBytes(32)]);
      const { rows } = await scope.query<{ day: string; salt: Buffer }>('SELECT day, salt FROM telemetry_salts WHERE day IN ($1, $2)', [day, previousDay]);
      const current = rows.find((row) => row.day === day)?.salt;
      if (!current) throw new Error(`The telemetry salt of ${day} cannot be read back`);
      const previous = rows.find((row) => row.day === previousDay)?.salt ?? null;
      return { current: new Uint8Array(current), previous: previous ? new Uint8Array(previous) : null };
    });
  }

  async forgetSaltsBefore(day: string): Promise<number> {
    return (await this.scope.query('DELETE FROM telemetry_salts WHERE day < $1', [day])).rowCount ?? 0;
  }

  async countRecentReporters(pluginId: string, version: string, since: string): Promise<number> {
    return (await this.one<{ total: number }>(COUNT_RECENT_REPORTERS, [pluginId, version, since]))?.total ?? 0;
  }

  async recordInstalls(record: InstallRecord): Promise<void> {
    if (record.versions.length === 0) return;
    await this.scope.query(RECORD_INSTALLS, [
      record.day,
      record.network,
      record.versions.map((version) => version.pluginId),
      record.versions.map((version) => version.version),
    ]);
  }

  async listedInstalled(day: string, network: string, version: VersionRef): Promise<boolean> {
    const row = await this.one('SELECT 1 AS found FROM plugin_version_installs WHERE day = $1 AND network = $2 AND plugin_id = $3 AND plugin_version = $4', [
      day,
      network,
      version.pluginId,
      version.version,
    ]);
    return row !== undefined;
  }

  async rolloutPauses(candidates: readonly VersionRef[], rule: PauseRule): Promise<boolean[]> {
    if (candidates.length === 0) return [];
    return (await this.one<{ paused: boolean[] }>(ROLLOUT_PAUSES, pauseParameters(candidates, rule)))?.paused ?? [];
  }

  async rolloutPausesWithRevision(candidates: readonly VersionRef[], rule: PauseRule): Promise<PausesWithRevision> {
    if (candidates.length === 0) return { revision: await this.catalogRevision(), paused: [] };
    const row = await this.one<PausesWithRevision>(ROLLOUT_PAUSES_WITH_REVISION, pauseParameters(candidates, rule));
    return row ?? { revision: -1, paused: [] };
  }

  async pauseState(version: VersionRef, rule: Pick<PauseRule, 'since' | 'baseFromDay'>): Promise<PauseState> {
    return pauseStateOf(await this.one<PauseStateRow>(PAUSE_STATE, [version.pluginId, version.version, rule.since, rule.baseFromDay]));
  }

  async pausedVersions(rule: Pick<PauseRule, 'since' | 'threshold' | 'baseFromDay'>): Promise<PausedVersion[]> {
    return (await this.all<PausedVersionRow>(PAUSED_VERSIONS, [rule.since, rule.threshold, rule.baseFromDay])).map(pausedVersionOf);
  }

  async liftPause(lift: NewPauseLift): Promise<void> {
    const audit = liftAuditRow(lift);
    await this.scope.transaction(async (scope) => {
      await scope.query(
        `INSERT INTO rollout_pause_lifts (plugin_id, plugin_version, lifted_at, lifted_by, reason, reporters) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (plugin_id, plugin_version) DO UPDATE
         SET lifted_at = EXCLUDED.lifted_at, lifted_by = EXCLUDED.lifted_by, reason = EXCLUDED.reason, reporters = EXCLUDED.reporters`,
        [lift.pluginId, lift.version, lift.liftedAt, lift.liftedBy, lift.reason, lift.reporters],
      );
      await scope.query(`INSERT INTO audit_log (at, actor, actor_address, action, subject, reason, details) VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb)`, [
        audit.at,
        audit.actor,
        audit.actorAddress,
        audit.action,
        audit.subject,
        audit.reason,
        audit.details,
      ]);
    });
  }

  async forgetInstallsBefore(networksBefore: string, countsBefore: string): Promise<number> {
    return this.scope.transaction(async (scope) => {
      await scope.query('DELETE FROM plugin_version_install_counts WHERE day < $1', [countsBefore]);
      return (await scope.query('DELETE FROM plugin_version_installs WHERE day < $1', [networksBefore])).rowCount ?? 0;
    });
  }

  async purgeReportsBefore(before: string): Promise<number> {
    // See SqliteCatalogRepository.purgeReportsBefore: reporters whose latest report goes go too.
    return this.scope.transaction(async (scope) => {
      await scope.query('DELETE FROM plugin_version_reporters WHERE last_report_at < $1', [before]);
      return (await scope.query('DELETE FROM plugin_error_reports WHERE received_at < $1', [before])).rowCount ?? 0;
    });
  }

  async incrementDownloads(pluginId: string, versionId: string, day: string): Promise<void> {
    await this.scope.transaction(async (scope) => {
      await scope.query(
        `INSERT INTO plugin_downloads_daily (plugin_id, version_id, day, downloads) VALUES ($1, $2, $3, 1)
         ON CONFLICT (plugin_id, day, version_id) DO UPDATE SET downloads = plugin_downloads_daily.downloads + 1`,
        [pluginId, versionId, day],
      );
      await scope.query('UPDATE plugins SET downloads_count = downloads_count + 1 WHERE id = $1', [pluginId]);
    });
  }

  async stats(slug: string, fromDay: string): Promise<PluginStats | null> {
    const plugin = await this.one<PluginRow>(PLUGIN_BY_SLUG, [slug]);
    if (!plugin) return null;
    const daily = await this.all<{ day: string; downloads: number }>(
      `SELECT day, SUM(downloads)::bigint AS downloads FROM plugin_downloads_daily WHERE plugin_id = $1 AND day >= $2 GROUP BY day ORDER BY day`,
      [plugin.id, fromDay],
    );
    return { pluginId: plugin.id, slug: plugin.slug, downloadsCount: plugin.downloads_count, daily };
  }

  async addReview(review: NewReview): Promise<{ readonly created: boolean; readonly review: Review }> {
    if (!(Number.isInteger(review.rating) && review.rating >= 1 && review.rating <= 5)) {
      throw invalidArgument('rating must be a whole number from 1 to 5');
    }
    return this.scope.transaction(async (scope) => {
      const within = this.within(scope);
      await within.requirePlugin(review.pluginId);
      const values = [review.pluginId, review.accountId, review.authorName ?? null, review.rating, review.text, review.createdAt];
      const inserted = await within.one<ReviewRow>(
        `INSERT INTO plugin_reviews (plugin_id, account_id, author_name, rating, text, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $6) ON CONFLICT (plugin_id, account_id) DO NOTHING RETURNING *`,
        values,
      );
      if (inserted) return { created: true, review: reviewOf(inserted) };
      const replaced = await within.one<ReviewRow>(
        `UPDATE plugin_reviews SET author_name = $3, rating = $4, text = $5, updated_at = $6 WHERE plugin_id = $1 AND account_id = $2 RETURNING *`,
        values,
      );
      if (!replaced) throw new Error('The review just written cannot be read back');
      return { created: false, review: reviewOf(replaced) };
    });
  }

  async listReviews(slug: string, page: number, pageSize: number): Promise<ReviewPage | null> {
    const plugin = await this.one<PluginRow>(PLUGIN_BY_SLUG, [slug]);
    if (!plugin) return null;
    const rating = await this.one<{ total: number; average: number | null }>(
      'SELECT COUNT(*)::int AS total, AVG(rating)::float8 AS average FROM plugin_reviews WHERE plugin_id = $1',
      [plugin.id],
    );
    const items = (
      await this.all<ReviewRow>('SELECT * FROM plugin_reviews WHERE plugin_id = $1 ORDER BY created_at DESC, account_id ASC LIMIT $2 OFFSET $3', [
        plugin.id,
        pageSize,
        (page - 1) * pageSize,
      ])
    ).map(reviewOf);
    const average = rating?.average ?? null;
    return {
      total: rating?.total ?? 0,
      ratingAverage: average === null ? null : Math.round(average * 100) / 100,
      ratingCount: rating?.total ?? 0,
      items,
    };
  }

  private async requirePlugin(id: string): Promise<CatalogPlugin> {
    const plugin = await this.getPlugin(id);
    if (plugin === null) throw notFound(`No plugin ${id}`);
    return plugin;
  }

  private async one<R extends object>(text: string, values: readonly unknown[] = []): Promise<R | undefined> {
    return (await this.scope.query<R & Record<string, unknown>>(text, values)).rows[0];
  }

  private async all<R extends object>(text: string, values: readonly unknown[] = []): Promise<R[]> {
    return (await this.scope.query<R & Record<string, unknown>>(text, values)).rows;
  }
}
