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

/**
 * A version with its precedence keys (`versionOrder`): comparing two keys as strings compares the
 * versions by semver precedence, without parsing them (check-updates compares hundreds).
 */
export interface RankedVersion extends CatalogVersion {
  /** `versionOrder(version).key`. */
  readonly versionKey: string;
  /** `versionOrder(minLauncherVersion).key`. */
  readonly minLauncherKey: string;
}

/** What {@link CatalogRepository.rolloutPausesWithRevision} answers. */
export interface PausesWithRevision {
  /** The catalog revision in the snapshot the decisions were read in (-1 when its row is missing). */
  readonly revision: number;
  /** The answer of `rolloutPauses`, in the order of the candidates. */
  readonly paused: boolean[];
}

/**
 * The registry catalog's storage: plugins, versions, telemetry reports, reviews and download
 * counts. Routes and the publishing module use only this interface, implemented by
 * {@link SqliteCatalogRepository} and `PostgresCatalogRepository`; every method is asynchronous
 * (SQLite answers synchronously, PostgreSQL over the network). Each write is atomic.
 *
 * "Published" means: the plugin has at least one version in state `published`. Every method whose
 * name says "published" sees nothing else; pending and rejected versions exist only for the
 * publishing module and reviewers.
 *
 * Conflicts are thrown as `RegistryError`: `slug_taken`, `plugin_id_taken` (createPlugin),
 * `version_exists` (addVersion), `not_found` (a change to a plugin or version that does not exist).
 */
export interface CatalogRepository {
  // Reading what clients see.

  /** One page of published plugins matching `query`, and how many match in all. */
  listPublished(query: PluginListQuery): Promise<PluginListPage>;
  /**
   * The catalog's revision: a number the database raises with every committed change a list
   * answer shows (a plugin's listed fields, versions, reviews; not download counts). Equal
   * revisions mean equal catalogs, on every instance of the database. One indexed row: cheap
   * enough to read on every request. -1 when the row is missing (deleted by hand): the next
   * change writes it again, and until then nothing may be reused.
   */
  catalogRevision(): Promise<number>;
  /** How many plugins are published (the `pluginCount` of `GET /registry`). */
  countPublished(): Promise<number>;
  /** The published plugin with this slug, or `null` (unknown, or nothing published yet). */
  getPublishedBySlug(slug: string): Promise<PublishedPlugin | null>;
  /** The published plugin with this manifest id, or `null`. */
  getPublishedById(id: string): Promise<PublishedPlugin | null>;
  /** The plugin's published versions, highest precedence first (empty when none or unknown). */
  publishedVersions(slug: string): Promise<CatalogVersion[]>;
  /**
   * The plugin's latest published version: the highest release version, or the highest
   * pre-release when it has published only pre-releases; `null` when none is published.
   */
  latestPublished(slug: string): Promise<CatalogVersion | null>;
  /** The version `version` of the plugin `slug` if it is published, else `null`. */
  publishedVersion(slug: string, version: string): Promise<CatalogVersion | null>;
  /**
   * {@link latestPublished} of many plugins in one query (check-updates asks about up to 500): by
   * slug, for each of `slugs` that has a published version; unknown slugs are left out.
   */
  latestPublishedOf(slugs: readonly string[]): Promise<Map<string, RankedVersion>>;

  // Reading for publishing and review.

  /** A plugin by manifest id, whatever the state of its versions. */
  getPlugin(id: string): Promise<CatalogPlugin | null>;
  /** A plugin by slug, whatever the state of its versions. */
  getPluginBySlug(slug: string): Promise<CatalogPlugin | null>;
  /** The version `version` of the plugin `slug` in any state, or `null`. */
  version(slug: string, version: string): Promise<CatalogVersion | null>;
  /** A version by its id, in any state, or `null`. */
  versionById(id: string): Promise<CatalogVersion | null>;
  /** Every version of a plugin (any state), newest upload first. */
  versionsOf(pluginId: string): Promise<CatalogVersion[]>;
  /** The plugins an account owns, by slug. */
  pluginsOwnedBy(accountId: string): Promise<CatalogPlugin[]>;
  /** Versions in state `pending_review`, oldest upload first. */
  listPending(): Promise<PendingVersion[]>;

  // Writing (the publishing module).

  createPlugin(plugin: NewPlugin): Promise<CatalogPlugin>;
  updatePlugin(id: string, changes: PluginChanges): Promise<CatalogPlugin>;
  /** Adds a version (id generated); `publishedAt` is `createdAt` when it is added as `published`. */
  addVersion(version: NewVersion): Promise<CatalogVersion>;
  /**
   * Moves a version to `status`. Becoming `published` sets `publishedAt` to `at` (the first time
   * only; re-publishing keeps the original date).
   */
  setVersionStatus(versionId: string, status: VersionStatus, change: { readonly at: string; readonly reviewNote?: string | null }): Promise<CatalogVersion>;
  /**
   * A reviewer's decision (atomic): moves a version that is `pending_review` now to `published`
   * (setting `publishedAt` to `at`) or `rejected`, with the reviewer's note when given. `null` when
   * the version is not waiting for review (unknown, or decided meanwhile by another reviewer).
   */
  decideReview(
    versionId: string,
    status: Exclude<VersionStatus, 'pending_review'>,
    change: { readonly at: string; readonly reviewNote?: string | null },
  ): Promise<CatalogVersion | null>;
  /** Sets the share (0 to 100) of launchers offered the version as an update. */
  setRolloutPercent(versionId: string, rolloutPercent: number): Promise<CatalogVersion>;

  // Telemetry and the automatic rollout pause.

  /**
   * Stores a report; with `previousReporter`, first re-keys that network's reports of the same
   * version received within 24 hours before it to `reporter` (see {@link ErrorReport}).
   */
  addReport(report: ErrorReport): Promise<void>;
  /**
   * The salt of the UTC day `day` (`YYYY-MM-DD`), created at random when missing (once, also with
   * several processes), and that of `previousDay` if it is still kept. Deletes every salt older
   * than `previousDay`: no report in the pause window can need it.
   */
  reporterSalts(day: string, previousDay: string): Promise<ReporterSalts>;
  /** Deletes the salts of days before `day` (`YYYY-MM-DD`); returns how many. */
  forgetSaltsBefore(day: string): Promise<number>;
  /**
   * How many distinct reporters sent reports for `pluginId` (the manifest id) at exactly `version`
   * at or after `since` (decisions section 6). Answered from an index, whatever the number of
   * reports stored.
   */
  countRecentReporters(pluginId: string, version: string, since: string): Promise<number>;
  /**
   * Records that the network `record.network` listed `record.versions` as installed in a
   * check-updates on `record.day` (decisions section 12): once per network, version and day,
   * however often it asks; the day's count of networks of each version grows with each new one.
   */
  recordInstalls(record: InstallRecord): Promise<void>;
  /** Whether `network` listed `pluginId` at exactly `version` in a check-updates on `day`. */
  listedInstalled(day: string, network: string, version: VersionRef): Promise<boolean>;
  /**
   * For each of `candidates`, whether `rule` pauses it now, in the order given: the pause decisions
   * of one check-updates in one query. A candidate with no more than `rule.threshold` reporters
   * (nearly all) reads at most `threshold + 1` index entries, however many reports, reporters or
   * installs the version has; the installed base and a lift are read only beyond that.
   */
  rolloutPauses(candidates: readonly VersionRef[], rule: PauseRule): Promise<boolean[]>;
  /**
   * {@link rolloutPauses} and {@link catalogRevision} read together, in one snapshot (on
   * PostgreSQL one statement, so one round trip): check-updates decides the pauses of candidates
   * it took from versions kept in memory and, in the same read, learns whether the catalog is
   * still at the revision they were kept under.
   */
  rolloutPausesWithRevision(candidates: readonly VersionRef[], rule: PauseRule): Promise<PausesWithRevision>;
  /** The reporters since `rule.since`, the installed base over the rule's days, and the latest lift of one version. */
  pauseState(version: VersionRef, rule: Pick<PauseRule, 'since' | 'baseFromDay'>): Promise<PauseState>;
  /**
   * Versions with more than `rule.threshold` distinct reporters since `rule.since`, most reporters
   * first, with their installed base and latest lift (whether the rule pauses each is the caller's
   * to work out from those).
   */
  pausedVersions(rule: Pick<PauseRule, 'since' | 'threshold' | 'baseFromDay'>): Promise<PausedVersion[]>;
  /**
   * Stores an operator's lift of a version's pause (replacing an earlier lift of it) and its entry
   * in the audit log, in one transaction.
   */
  liftPause(lift: NewPauseLift): Promise<void>;
  /**
   * Deletes the networks recorded on days before `networksBefore` and the daily counts of days
   * before `countsBefore` (`YYYY-MM-DD`); returns how many networks.
   */
  forgetInstallsBefore(networksBefore: string, countsBefore: string): Promise<number>;
  /** Deletes reports received before `before` (and what the pause count keeps of them); returns how many. */
  purgeReportsBefore(before: string): Promise<number>;

  // Downloads and reviews.

  /** Counts one package download of a version on a UTC day (`YYYY-MM-DD`). */
  incrementDownloads(pluginId: string, versionId: string, day: string): Promise<void>;
  /** Total downloads and the per-day counts from `fromDay` (`YYYY-MM-DD`) on; `null` for an unknown slug. */
  stats(slug: string, fromDay: string): Promise<PluginStats | null>;
  /** Adds the account's review of a plugin, or replaces its earlier one (`created` tells which). */
  addReview(review: NewReview): Promise<{ readonly created: boolean; readonly review: Review }>;
  /** One page of a plugin's reviews, newest first, with the rating aggregate; `null` for an unknown slug. */
  listReviews(slug: string, page: number, pageSize: number): Promise<ReviewPage | null>;
}
