import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import { RegistryError, invalidArgument, notFound } from '../errors/registry-error.js';
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
  type ListFilters,
  type NewVersionRow,
} from './catalog-input.js';
import type { RegistryDatabase } from '../storage/registry-database.js';
import { CATALOG_MIGRATIONS, CATALOG_MODULE } from './catalog-migrations.js';
import type { CatalogRepository, PausesWithRevision, RankedVersion } from './catalog-repository.js';
import { liftAuditRow, pausedVersionOf, pauseStateOf, type PausedVersionRow, type PauseStateRow } from './pause-rows.js';
import {
  PLUGIN_SORTS,
  type CatalogPlugin,
  type CatalogVersion,
  type ErrorReport,
  type InstallRecord,
  type NewPauseLift,
  type NewPlugin,
  type NewReview,
  type NewVersion,
  type PausedVersion,
  type PauseRule,
  type PauseState,
  type PendingVersion,
  type PluginChanges,
  type PluginListPage,
  type PluginListQuery,
  type PluginSort,
  type PluginStats,
  type PublishedPlugin,
  type ReporterSalts,
  type Review,
  type ReviewPage,
  type VersionRef,
  type VersionStatus,
} from './catalog-types.js';
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
import { PUBLISHED_COUNT_SQL, publishedPageSql, publishedPluginBy } from './sqlite-plugin-list.js';

/**
 * The pause count (decisions section 6): distinct reporters of one exact id@version since a time.
 * `plugin_version_reporters` keeps each reporter's latest report time per version (migration
 * `004-update-checks`), so this is a range of its index `plugin_version_reporters_recent`: one
 * entry per reporter in the window, however many reports each sent.
 */
export const COUNT_RECENT_REPORTERS_SQL = `
SELECT COUNT(*) AS total FROM plugin_version_reporters
WHERE plugin_id = @pluginId AND plugin_version = @version AND last_report_at >= @since`;

/** The installed base of the version `c.plugin_id`, `c.version`: its largest daily count of running networks since `@baseFromDay`. */
const INSTALLED_BASE_OF_CANDIDATE = `COALESCE((
  SELECT MAX(i.networks) FROM plugin_version_install_counts i
  WHERE i.plugin_id = c.plugin_id AND i.plugin_version = c.version AND i.day >= @baseFromDay), 0)`;

/**
 * The pause decisions of a check-updates (decisions section 12): for each candidate (`[pluginId,
 * version]` pairs in a JSON array), whether its reporters since `@since` are more than the largest
 * of `@threshold`, `@basePercent` % of its installed base rounded up, and twice the reporters of
 * its latest lift. The first test, whether a `@threshold + 1`-th reporter exists, reads at most
 * that many entries of `plugin_version_reporters_recent` and settles nearly every candidate; only
 * past it are the reporters counted and the installed base and the lift looked up (`CASE` runs
 * its branches lazily).
 */
export const ROLLOUT_PAUSES_SQL = `
SELECT CASE
  WHEN (
    SELECT 1 FROM plugin_version_reporters r
    WHERE r.plugin_id = c.plugin_id AND r.plugin_version = c.version AND r.last_report_at >= @since
    ORDER BY r.last_report_at LIMIT 1 OFFSET @threshold
  ) IS NULL THEN 0
  ELSE (
    SELECT COUNT(*) FROM plugin_version_reporters r
    WHERE r.plugin_id = c.plugin_id AND r.plugin_version = c.version AND r.last_report_at >= @since
  ) > MAX(
    @threshold,
    (${INSTALLED_BASE_OF_CANDIDATE} * @basePercent + 99) / 100,
    COALESCE((SELECT 2 * l.reporters FROM rollout_pause_lifts l WHERE l.plugin_id = c.plugin_id AND l.plugin_version = c.version), 0)
  )
END AS paused
FROM (SELECT json_extract(j.value, '$[0]') AS plugin_id, json_extract(j.value, '$[1]') AS version, j.key AS position FROM json_each(@candidates) j) c
ORDER BY c.position`;

/** The reporters, installed base and latest lift of one version. */
const PAUSE_STATE_SQL = `
SELECT (
    SELECT COUNT(*) FROM plugin_version_reporters r
    WHERE r.plugin_id = c.plugin_id AND r.plugin_version = c.version AND r.last_report_at >= @since
  ) AS reporters,
  ${INSTALLED_BASE_OF_CANDIDATE} AS installed_base,
  l.lifted_at, l.lifted_by, l.reason, l.reporters AS lift_reporters
FROM (SELECT @pluginId AS plugin_id, @version AS version) c
LEFT JOIN rollout_pause_lifts l ON l.plugin_id = c.plugin_id AND l.plugin_version = c.version`;

/**
 * The latest published version of each slug of a JSON array (see `latestPublished`). Releases and
 * pre-releases are looked up apart, each a backward seek of `plugin_versions_latest` that reads
 * the index alone (it holds the rowid): the single `ORDER BY prerelease ASC, version_key DESC`
 * mixes directions, which the index cannot give, so it sorted every plugin's versions. The
 * candidates are materialized first, so each is looked up once, then fetched by rowid.
 */
export const LATEST_PUBLISHED_OF_SQL = `
WITH candidates AS MATERIALIZED (
  SELECT p.slug AS candidate_slug, COALESCE(
    (SELECT l.rowid FROM plugin_versions l WHERE l.plugin_id = p.id AND l.status = 'published' AND l.prerelease = 0 ORDER BY l.version_key DESC LIMIT 1),
    (SELECT l.rowid FROM plugin_versions l WHERE l.plugin_id = p.id AND l.status = 'published' AND l.prerelease = 1 ORDER BY l.version_key DESC LIMIT 1)
  ) AS version_rowid
  FROM json_each(?) s JOIN plugins p ON p.slug = s.value
)
SELECT ${VERSION_COLUMNS}, v.version_key, v.min_launcher_key, c.candidate_slug FROM candidates c JOIN plugin_versions v ON v.rowid = c.version_rowid`;

type RankedVersionRow = VersionRow & { version_key: string; min_launcher_key: string; candidate_slug: string };

function rankedVersionOf(row: RankedVersionRow): RankedVersion {
  return { ...versionOf(row), versionKey: row.version_key, minLauncherKey: row.min_launcher_key };
}

/** The admin view of paused versions: every id@version over the threshold in the window, with its installed base and lift. */
const PAUSED_VERSIONS_SQL = `
SELECT r.plugin_id, p.slug, r.plugin_version, v.id AS version_id, COUNT(DISTINCT r.reporter) AS reporters, COUNT(*) AS reports,
  MAX(r.received_at) AS last_report_at,
  COALESCE((
    SELECT MAX(i.networks) FROM plugin_version_install_counts i
    WHERE i.plugin_id = r.plugin_id AND i.plugin_version = r.plugin_version AND i.day >= @baseFromDay), 0) AS installed_base,
  l.lifted_at, l.lifted_by, l.reason, l.reporters AS lift_reporters
FROM plugin_error_reports r
JOIN plugins p ON p.id = r.plugin_id
JOIN plugin_versions v ON v.plugin_id = r.plugin_id AND v.version = r.plugin_version
LEFT JOIN rollout_pause_lifts l ON l.plugin_id = r.plugin_id AND l.plugin_version = r.plugin_version
WHERE r.received_at >= @since
GROUP BY r.plugin_id, r.plugin_version
HAVING COUNT(DISTINCT r.reporter) > @threshold
ORDER BY reporters DESC, r.plugin_id, r.plugin_version`;

/** Every statement of the catalog except the list queries, prepared once per database. */
function prepareStatements(db: Database.Database) {
  const versionsOfSlug = `SELECT ${VERSION_COLUMNS} FROM plugin_versions v JOIN plugins p ON p.id = v.plugin_id WHERE p.slug = ?`;
  return {
    catalogRevision: db.prepare<[], { revision: number }>('SELECT revision FROM catalog_revision WHERE id = 1'),
    countPublished: db.prepare<[], { total: number }>(
      `SELECT COUNT(*) AS total FROM plugins p WHERE EXISTS (SELECT 1 FROM plugin_versions v WHERE v.plugin_id = p.id AND v.status = 'published')`,
    ),
    publishedBySlug: db.prepare<[string], PublishedPluginRow>(publishedPluginBy('slug')),
    publishedById: db.prepare<[string], PublishedPluginRow>(publishedPluginBy('id')),
    publishedVersions: db.prepare<[string], VersionRow>(`${versionsOfSlug} AND v.status = 'published' ORDER BY v.version_key DESC`),
    latestPublished: db.prepare<[string], VersionRow>(`${versionsOfSlug} AND v.status = 'published' ORDER BY v.prerelease ASC, v.version_key DESC LIMIT 1`),
    versionBySlug: db.prepare<[string, string], VersionRow>(`${versionsOfSlug} AND v.version = ?`),
    versionById: db.prepare<[string], VersionRow>(`SELECT ${VERSION_COLUMNS} FROM plugin_versions v WHERE v.id = ?`),
    versionWithKey: db.prepare<[string, string], { version: string }>(`SELECT version FROM plugin_versions WHERE plugin_id = ? AND version_key = ?`),
    versionsOf: db.prepare<[string], VersionRow>(
      `SELECT ${VERSION_COLUMNS} FROM plugin_versions v WHERE v.plugin_id = ? ORDER BY v.created_at DESC, v.version_key DESC`,
    ),
    pluginById: db.prepare<[string], PluginRow>(`SELECT ${PLUGIN_COLUMNS} FROM plugins p WHERE p.id = ?`),
    pluginBySlug: db.prepare<[string], PluginRow>(`SELECT ${PLUGIN_COLUMNS} FROM plugins p WHERE p.slug = ?`),
    pluginsOwnedBy: db.prepare<[string], PluginRow>(`SELECT ${PLUGIN_COLUMNS} FROM plugins p WHERE p.owner_account_id = ? ORDER BY p.slug`),
    pending: db.prepare<[], PendingVersionRow>(
      `SELECT ${VERSION_COLUMNS}, p.slug, p.name AS plugin_name, p.owner_account_id
       FROM plugin_versions v JOIN plugins p ON p.id = v.plugin_id
       WHERE v.status = 'pending_review' ORDER BY v.created_at ASC`,
    ),
    insertPlugin: db.prepare(
      `INSERT INTO plugins (id, slug, owner_account_id, name, description, category, tags, icon_url, created_at)
       VALUES (@id, @slug, @ownerAccountId, @name, @description, @category, @tags, @iconUrl, @createdAt)`,
    ),
    updatePlugin: db.prepare(
      `UPDATE plugins SET name = @name, description = @description, category = @category, tags = @tags, icon_url = @iconUrl WHERE id = @id`,
    ),
    insertVersion: db.prepare(
      `INSERT INTO plugin_versions (id, plugin_id, version, version_key, prerelease, sha256, size_bytes, changelog, published_at,
         min_launcher_version, min_launcher_key, permissions, layers, status, rollout_percent, signer_key_id, created_at)
       VALUES (@id, @pluginId, @version, @versionKey, @prerelease, @sha256, @sizeBytes, @changelog, @publishedAt,
         @minLauncherVersion, @minLauncherKey, @permissions, @layers, @status, @rolloutPercent, @signerKeyId, @createdAt)`,
    ),
    setStatus: db.prepare(
      `UPDATE plugin_versions
       SET status = @status,
           published_at = CASE WHEN @status = 'published' THEN COALESCE(published_at, @at) ELSE published_at END,
           review_note = CASE WHEN @changeNote = 1 THEN @reviewNote ELSE review_note END
       WHERE id = @id`,
    ),
    setRollout: db.prepare<[number, string]>(`UPDATE plugin_versions SET rollout_percent = ? WHERE id = ?`),
    insertReport: db.prepare(
      `INSERT INTO plugin_error_reports (plugin_id, plugin_version, reporter, error_type, launcher_version, received_at)
       VALUES (@pluginId, @pluginVersion, @reporter, @errorType, @launcherVersion, @receivedAt)`,
    ),
    rekeyReporter: db.prepare<[{ pluginId: string; pluginVersion: string; since: string; previousReporter: string; reporter: string }]>(
      `UPDATE plugin_error_reports SET reporter = @reporter
       WHERE plugin_id = @pluginId AND plugin_version = @pluginVersion AND received_at >= @since AND reporter = @previousReporter`,
    ),
    countReporters: db.prepare<[{ pluginId: string; version: string; since: string }], { total: number }>(COUNT_RECENT_REPORTERS_SQL),
    rolloutPauses: db.prepare<[{ candidates: string } & PauseRule], { paused: number }>(ROLLOUT_PAUSES_SQL),
    pauseState: db.prepare<[{ pluginId: string; version: string; since: string; baseFromDay: string }], PauseStateRow>(PAUSE_STATE_SQL),
    recordInstalls: db.prepare<[{ day: string; network: string; versions: string }]>(
      `INSERT INTO plugin_version_installs (day, network, plugin_id, plugin_version)
       SELECT @day, @network, json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(@versions) WHERE true
       ON CONFLICT DO NOTHING`,
    ),
    listedInstalled: db.prepare<[string, string, string, string], { found: number }>(
      `SELECT 1 AS found FROM plugin_version_installs WHERE day = ? AND network = ? AND plugin_id = ? AND plugin_version = ?`,
    ),
    upsertLift: db.prepare(
      `INSERT INTO rollout_pause_lifts (plugin_id, plugin_version, lifted_at, lifted_by, reason, reporters)
       VALUES (@pluginId, @version, @liftedAt, @liftedBy, @reason, @reporters)
       ON CONFLICT (plugin_id, plugin_version) DO UPDATE
       SET lifted_at = excluded.lifted_at, lifted_by = excluded.lifted_by, reason = excluded.reason, reporters = excluded.reporters`,
    ),
    insertAudit: db.prepare(
      `INSERT INTO audit_log (at, actor, actor_address, action, subject, reason, details)
       VALUES (@at, @actor, @actorAddress, @action, @subject, @reason, @details)`,
    ),
    forgetInstalls: db.prepare<[string]>(`DELETE FROM plugin_version_installs WHERE day < ?`),
    forgetInstallCounts: db.prepare<[string]>(`DELETE FROM plugin_version_install_counts WHERE day < ?`),
    latestPublishedOf: db.prepare<[string], RankedVersionRow>(LATEST_PUBLISHED_OF_SQL),
    purgeReporters: db.prepare<[string]>(`DELETE FROM plugin_version_reporters WHERE last_report_at < ?`),
    pausedVersions: db.prepare<[{ since: string; threshold: number; baseFromDay: string }], PausedVersionRow>(PAUSED_VERSIONS_SQL),
    insertSalt: db.prepare<[string, Buffer]>(`INSERT INTO telemetry_salts (day, salt) VALUES (?, ?) ON CONFLICT (day) DO NOTHING`),
    salt: db.prepare<[string], { salt: Buffer }>(`SELECT salt FROM telemetry_salts WHERE day = ?`),
    forgetSalts: db.prepare<[string]>(`DELETE FROM telemetry_salts WHERE day < ?`),
    purgeReports: db.prepare<[string]>(`DELETE FROM plugin_error_reports WHERE received_at < ?`),
    countDownloadDay: db.prepare<[string, string, string]>(
      `INSERT INTO plugin_downloads_daily (plugin_id, version_id, day, downloads) VALUES (?, ?, ?, 1)
       ON CONFLICT (plugin_id, day, version_id) DO UPDATE SET downloads = downloads + 1`,
    ),
    countDownload: db.prepare<[string]>(`UPDATE plugins SET downloads_count = downloads_count + 1 WHERE id = ?`),
    dailyDownloads: db.prepare<[string, string], { day: string; downloads: number }>(
      `SELECT day, SUM(downloads) AS downloads FROM plugin_downloads_daily WHERE plugin_id = ? AND day >= ? GROUP BY day ORDER BY day`,
    ),
    review: db.prepare<[string, string], ReviewRow>(`SELECT * FROM plugin_reviews WHERE plugin_id = ? AND account_id = ?`),
    upsertReview: db.prepare(
      `INSERT INTO plugin_reviews (plugin_id, account_id, author_name, rating, text, created_at, updated_at)
       VALUES (@pluginId, @accountId, @authorName, @rating, @text, @createdAt, @createdAt)
       ON CONFLICT (plugin_id, account_id) DO UPDATE
       SET author_name = excluded.author_name, rating = excluded.rating, text = excluded.text, updated_at = excluded.updated_at`,
    ),
    ratingOf: db.prepare<[string], { total: number; average: number | null }>(
      `SELECT COUNT(*) AS total, AVG(rating) AS average FROM plugin_reviews WHERE plugin_id = ?`,
    ),
    reviewPage: db.prepare<[string, number, number], ReviewRow>(
      `SELECT * FROM plugin_reviews WHERE plugin_id = ? ORDER BY created_at DESC, account_id ASC LIMIT ? OFFSET ?`,
    ),
  };
}

type CatalogStatements = ReturnType<typeof prepareStatements>;

/**
 * The catalog in the registry's SQLite database (better-sqlite3). Runs the `catalog` migrations on
 * construction and prepares every statement once.
 *
 * "Latest published version": the highest-precedence published release, or the highest
 * pre-release when only pre-releases are published; versions are ordered in SQL through a
 * precedence key stored beside each version (see `versionOrder`). A new version whose precedence
 * equals an existing one (`1.0.0+b` beside `1.0.0+a`) is refused with `version_exists`, so
 * "latest" is never ambiguous.
 *
 * @example
 * ```ts
 * const catalog = new SqliteCatalogRepository(new RegistryDatabase(join(dataDirectory, 'registry.db')));
 * const page = await catalog.listPublished({ q: 'map', page: 1, pageSize: 20 });
 * ```
 */
export class SqliteCatalogRepository implements CatalogRepository {
  private readonly db: Database.Database;
  private readonly statements: CatalogStatements;
  private readonly pageStatements: ReadonlyMap<PluginSort, Database.Statement<[ListFilters & { limit: number; offset: number }], PublishedPluginRow>>;
  private readonly countStatement: Database.Statement<[ListFilters], { total: number }>;

  constructor(private readonly database: RegistryDatabase) {
    database.migrate(CATALOG_MODULE, CATALOG_MIGRATIONS);
    const db = database.db;
    this.db = db;
    this.pageStatements = new Map(PLUGIN_SORTS.map((sort) => [sort, db.prepare(publishedPageSql(sort))]));
    this.countStatement = db.prepare(PUBLISHED_COUNT_SQL);
    this.statements = prepareStatements(db);
  }

  async listPublished(query: PluginListQuery): Promise<PluginListPage> {
    const parameters = listFilters(query);
    const statement = this.pageStatements.get(sortOf(query));
    if (!statement) throw invalidArgument(`sort must be one of ${PLUGIN_SORTS.join(', ')}`);
    return this.database.transaction(() => {
      const total = this.countStatement.get(parameters)?.total ?? 0;
      const rows = statement.all({ ...parameters, limit: query.pageSize, offset: (query.page - 1) * query.pageSize });
      return { total, items: rows.map(publishedPluginOf) };
    });
  }

  async catalogRevision(): Promise<number> {
    return this.statements.catalogRevision.get()?.revision ?? -1;
  }

  async countPublished(): Promise<number> {
    return this.statements.countPublished.get()?.total ?? 0;
  }

  async getPublishedBySlug(slug: string): Promise<PublishedPlugin | null> {
    const row = this.statements.publishedBySlug.get(slug);
    return row ? publishedPluginOf(row) : null;
  }

  async getPublishedById(id: string): Promise<PublishedPlugin | null> {
    const row = this.statements.publishedById.get(id);
    return row ? publishedPluginOf(row) : null;
  }

  async publishedVersions(slug: string): Promise<CatalogVersion[]> {
    return this.statements.publishedVersions.all(slug).map(versionOf);
  }

  async latestPublished(slug: string): Promise<CatalogVersion | null> {
    const row = this.statements.latestPublished.get(slug);
    return row ? versionOf(row) : null;
  }

  async publishedVersion(slug: string, version: string): Promise<CatalogVersion | null> {
    const found = await this.version(slug, version);
    return found?.status === 'published' ? found : null;
  }

  async latestPublishedOf(slugs: readonly string[]): Promise<Map<string, RankedVersion>> {
    const latest = new Map<string, RankedVersion>();
    if (slugs.length === 0) return latest;
    for (const row of this.statements.latestPublishedOf.all(JSON.stringify(slugs))) latest.set(row.candidate_slug, rankedVersionOf(row));
    return latest;
  }

  async getPlugin(id: string): Promise<CatalogPlugin | null> {
    const row = this.statements.pluginById.get(id);
    return row ? pluginOf(row) : null;
  }

  async getPluginBySlug(slug: string): Promise<CatalogPlugin | null> {
    const row = this.statements.pluginBySlug.get(slug);
    return row ? pluginOf(row) : null;
  }

  async version(slug: string, version: string): Promise<CatalogVersion | null> {
    const row = this.statements.versionBySlug.get(slug, version);
    return row ? versionOf(row) : null;
  }

  async versionById(id: string): Promise<CatalogVersion | null> {
    const row = this.statements.versionById.get(id);
    return row ? versionOf(row) : null;
  }

  async versionsOf(pluginId: string): Promise<CatalogVersion[]> {
    return this.statements.versionsOf.all(pluginId).map(versionOf);
  }

  async pluginsOwnedBy(accountId: string): Promise<CatalogPlugin[]> {
    return this.statements.pluginsOwnedBy.all(accountId).map(pluginOf);
  }

  async listPending(): Promise<PendingVersion[]> {
    return this.statements.pending.all().map(pendingVersionOf);
  }

  async createPlugin(plugin: NewPlugin): Promise<CatalogPlugin> {
    checkSlug(plugin.slug);
    return this.database.transaction(() => {
      if (this.statements.pluginById.get(plugin.id)) throw new RegistryError('plugin_id_taken', `The plugin id ${plugin.id} exists already`);
      return this.insertPlugin(plugin);
    });
  }

  /**
   * For a sibling repository's transaction on the same database (an upload): the plugin record
   * of `plugin.id` when `plugin.ownerAccountId` owns it, else creates it.
   *
   * @throws RegistryError `plugin_id_taken` (another account owns the id), `slug_taken`.
   */
  claimPluginSync(plugin: NewPlugin): CatalogPlugin {
    checkSlug(plugin.slug);
    const existing = this.statements.pluginById.get(plugin.id);
    if (!existing) return this.insertPlugin(plugin);
    if (existing.owner_account_id !== plugin.ownerAccountId)
      throw new RegistryError('plugin_id_taken', `The plugin id ${plugin.id} belongs to another account`);
    return pluginOf(existing);
  }

  private insertPlugin(plugin: NewPlugin): CatalogPlugin {
    if (this.statements.pluginBySlug.get(plugin.slug)) throw new RegistryError('slug_taken', `The slug ${plugin.slug} is taken`);
    this.statements.insertPlugin.run({
      id: plugin.id,
      slug: plugin.slug,
      ownerAccountId: plugin.ownerAccountId,
      name: plugin.name,
      description: plugin.description ?? '',
      category: plugin.category ?? null,
      tags: JSON.stringify(normalizedTags(plugin.tags)),
      iconUrl: plugin.iconUrl ?? null,
      createdAt: plugin.createdAt,
    });
    return this.requirePlugin(plugin.id);
  }

  async updatePlugin(id: string, changes: PluginChanges): Promise<CatalogPlugin> {
    return this.database.transaction(() => {
      const current = this.requirePlugin(id);
      this.statements.updatePlugin.run({
        id,
        name: changes.name ?? current.name,
        description: changes.description ?? current.description,
        category: changes.category === undefined ? current.category : changes.category,
        tags: JSON.stringify(changes.tags === undefined ? current.tags : normalizedTags(changes.tags)),
        iconUrl: changes.iconUrl === undefined ? current.iconUrl : changes.iconUrl,
      });
      return this.requirePlugin(id);
    });
  }

  async addVersion(version: NewVersion): Promise<CatalogVersion> {
    const row = newVersionRow(version);
    return this.database.transaction(() => this.insertVersion(row));
  }

  /** {@link addVersion} for a sibling repository's transaction on the same database (an upload). */
  addVersionSync(version: NewVersion): CatalogVersion {
    return this.insertVersion(newVersionRow(version));
  }

  private insertVersion(row: NewVersionRow): CatalogVersion {
    const plugin = this.requirePlugin(row.pluginId);
    const same = this.statements.versionWithKey.get(plugin.id, row.versionKey);
    if (same) throw versionExists(plugin.slug, row.version, same.version);
    this.statements.insertVersion.run(row);
    return this.requireVersion(row.id);
  }

  async setVersionStatus(
    versionId: string,
    status: VersionStatus,
    change: { readonly at: string; readonly reviewNote?: string | null },
  ): Promise<CatalogVersion> {
    checkStatus(status);
    return this.database.transaction(() => {
      this.requireVersion(versionId);
      this.statements.setStatus.run({
        id: versionId,
        status,
        at: change.at,
        changeNote: change.reviewNote === undefined ? 0 : 1,
        reviewNote: change.reviewNote ?? null,
      });
      return this.requireVersion(versionId);
    });
  }

  async decideReview(
    versionId: string,
    status: Exclude<VersionStatus, 'pending_review'>,
    change: { readonly at: string; readonly reviewNote?: string | null },
  ): Promise<CatalogVersion | null> {
    if (status !== 'published' && status !== 'rejected') throw invalidArgument('A review decides published or rejected');
    return this.database.transaction(() => {
      if (this.statements.versionById.get(versionId)?.status !== 'pending_review') return null;
      this.statements.setStatus.run({
        id: versionId,
        status,
        at: change.at,
        changeNote: change.reviewNote === undefined ? 0 : 1,
        reviewNote: change.reviewNote ?? null,
      });
      return this.requireVersion(versionId);
    });
  }

  async setRolloutPercent(versionId: string, rolloutPercent: number): Promise<CatalogVersion> {
    requireRolloutPercent(rolloutPercent);
    return this.database.transaction(() => {
      this.requireVersion(versionId);
      this.statements.setRollout.run(rolloutPercent, versionId);
      return this.requireVersion(versionId);
    });
  }

  async addReport(report: ErrorReport): Promise<void> {
    const { previousReporter, ...row } = report;
    this.database.transaction(() => {
      if (previousReporter !== undefined && previousReporter !== row.reporter) {
        const since = new Date(Date.parse(row.receivedAt) - REPORTER_REKEY_WINDOW_MS).toISOString();
        this.statements.rekeyReporter.run({ pluginId: row.pluginId, pluginVersion: row.pluginVersion, since, previousReporter, reporter: row.reporter });
      }
      this.statements.insertReport.run(row);
    });
  }

  async reporterSalts(day: string, previousDay: string): Promise<ReporterSalts> {
    return this.database.transaction(() => {
      this.statements.forgetSalts.run(previousDay);
      this.statements.insertSalt.run(day, randomBytes(32));
      const current = this.statements.salt.get(day)?.salt;
      if (!current) throw new Error(`The telemetry salt of ${day} cannot be read back`);
      const previous = this.statements.salt.get(previousDay)?.salt ?? null;
      return { current: new Uint8Array(current), previous: previous ? new Uint8Array(previous) : null };
    });
  }

  async forgetSaltsBefore(day: string): Promise<number> {
    return this.statements.forgetSalts.run(day).changes;
  }

  async countRecentReporters(pluginId: string, version: string, since: string): Promise<number> {
    return this.statements.countReporters.get({ pluginId, version, since })?.total ?? 0;
  }

  async recordInstalls(record: InstallRecord): Promise<void> {
    if (record.versions.length === 0) return;
    const versions = JSON.stringify(record.versions.map((version) => [version.pluginId, version.version]));
    this.statements.recordInstalls.run({ day: record.day, network: record.network, versions });
  }

  async listedInstalled(day: string, network: string, version: VersionRef): Promise<boolean> {
    return this.statements.listedInstalled.get(day, network, version.pluginId, version.version) !== undefined;
  }

  async rolloutPauses(candidates: readonly VersionRef[], rule: PauseRule): Promise<boolean[]> {
    if (candidates.length === 0) return [];
    return this.pausesOf(candidates, rule);
  }

  async rolloutPausesWithRevision(candidates: readonly VersionRef[], rule: PauseRule): Promise<PausesWithRevision> {
    // One read transaction: both in one snapshot, as PostgreSQL's single statement gives.
    return this.database.transaction(() => {
      const revision = this.statements.catalogRevision.get()?.revision ?? -1;
      return { revision, paused: candidates.length === 0 ? [] : this.pausesOf(candidates, rule) };
    });
  }

  private pausesOf(candidates: readonly VersionRef[], rule: PauseRule): boolean[] {
    const pairs = JSON.stringify(candidates.map((candidate) => [candidate.pluginId, candidate.version]));
    const { since, threshold, baseFromDay, basePercent } = rule;
    return this.statements.rolloutPauses.all({ candidates: pairs, since, threshold, baseFromDay, basePercent }).map((row) => row.paused === 1);
  }

  async pauseState(version: VersionRef, rule: Pick<PauseRule, 'since' | 'baseFromDay'>): Promise<PauseState> {
    const { pluginId } = version;
    return pauseStateOf(this.statements.pauseState.get({ pluginId, version: version.version, since: rule.since, baseFromDay: rule.baseFromDay }));
  }

  async pausedVersions(rule: Pick<PauseRule, 'since' | 'threshold' | 'baseFromDay'>): Promise<PausedVersion[]> {
    return this.statements.pausedVersions.all({ since: rule.since, threshold: rule.threshold, baseFromDay: rule.baseFromDay }).map(pausedVersionOf);
  }

  async liftPause(lift: NewPauseLift): Promise<void> {
    this.database.transaction(() => {
      const { pluginId, version, liftedAt, liftedBy, reason, reporters } = lift;
      this.statements.upsertLift.run({ pluginId, version, liftedAt, liftedBy, reason, reporters });
      this.statements.insertAudit.run(liftAuditRow(lift));
    });
  }

  async forgetInstallsBefore(networksBefore: string, countsBefore: string): Promise<number> {
    return this.database.transaction(() => {
      this.statements.forgetInstallCounts.run(countsBefore);
      return this.statements.forgetInstalls.run(networksBefore).changes;
    });
  }

  async purgeReportsBefore(before: string): Promise<number> {
    // A reporter whose latest report is older than `before` has no report left after the purge;
    // one with a later report keeps its row unchanged (its latest time is that report's).
    return this.database.transaction(() => {
      this.statements.purgeReporters.run(before);
      return this.statements.purgeReports.run(before).changes;
    });
  }

  async incrementDownloads(pluginId: string, versionId: string, day: string): Promise<void> {
    this.database.transaction(() => {
      this.statements.countDownloadDay.run(pluginId, versionId, day);
      this.statements.countDownload.run(pluginId);
    });
  }

  async stats(slug: string, fromDay: string): Promise<PluginStats | null> {
    const plugin = this.statements.pluginBySlug.get(slug);
    if (!plugin) return null;
    const daily = this.statements.dailyDownloads.all(plugin.id, fromDay);
    return { pluginId: plugin.id, slug: plugin.slug, downloadsCount: plugin.downloads_count, daily };
  }

  async addReview(review: NewReview): Promise<{ readonly created: boolean; readonly review: Review }> {
    if (!(Number.isInteger(review.rating) && review.rating >= 1 && review.rating <= 5)) throw invalidArgument('rating must be a whole number from 1 to 5');
    return this.database.transaction(() => {
      this.requirePlugin(review.pluginId);
      const created = this.statements.review.get(review.pluginId, review.accountId) === undefined;
      this.statements.upsertReview.run({ ...review, authorName: review.authorName ?? null });
      const row = this.statements.review.get(review.pluginId, review.accountId);
      if (!row) throw new Error('The review just written cannot be read back');
      return { created, review: reviewOf(row) };
    });
  }

  async listReviews(slug: string, page: number, pageSize: number): Promise<ReviewPage | null> {
    return this.database.transaction(() => {
      const plugin = this.statements.pluginBySlug.get(slug);
      if (!plugin) return null;
      const rating = this.statements.ratingOf.get(plugin.id);
      const items = this.statements.reviewPage.all(plugin.id, pageSize, (page - 1) * pageSize).map(reviewOf);
      const average = rating?.average ?? null;
      return {
        total: rating?.total ?? 0,
        ratingAverage: average === null ? null : Math.round(average * 100) / 100,
        ratingCount: rating?.total ?? 0,
        items,
      };
    });
  }

  private requirePlugin(id: string): CatalogPlugin {
    const row = this.statements.pluginById.get(id);
    if (!row) throw notFound(`No plugin ${id}`);
    return pluginOf(row);
  }

  private requireVersion(id: string): CatalogVersion {
    const row = this.statements.versionById.get(id);
    if (!row) throw notFound(`No version ${id}`);
    return versionOf(row);
  }
}
