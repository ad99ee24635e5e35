export type { CatalogRepository, PausesWithRevision, RankedVersion } from './catalog-repository.js';
export { SqliteCatalogRepository } from './sqlite-catalog-repository.js';
export { PostgresCatalogRepository } from './postgres-catalog-repository.js';
export { CATALOG_MIGRATIONS, CATALOG_MODULE } from './catalog-migrations.js';
export { POSTGRES_CATALOG_MIGRATIONS } from './postgres-catalog-migrations.js';
export { versionOrder, type VersionOrder } from './version-key.js';
export { PLUGIN_ERROR_TYPES, PLUGIN_SORTS, VERSION_STATUSES } from './catalog-types.js';
export type {
  CatalogPlugin,
  CatalogVersion,
  DailyDownloads,
  ErrorReport,
  InstallRecord,
  NewPauseLift,
  NewPlugin,
  NewReview,
  NewVersion,
  PausedVersion,
  PauseLift,
  PauseRule,
  PauseState,
  PendingVersion,
  PluginChanges,
  PluginListPage,
  PluginListQuery,
  PluginSort,
  PluginStats,
  PublishedPlugin,
  ReportedErrorType,
  ReporterSalts,
  Review,
  ReviewPage,
  VersionRef,
  VersionStatus,
} from './catalog-types.js';
