/**
 * The registry (store) server: the open registry protocol as Koa middleware over SQLite
 * (better-sqlite3, one process) or PostgreSQL (`pg`, several stateless instances), with its
 * catalog, accounts and device sign-in, publishing, telemetry intake and update checks. The
 * launcher's local backend (`@plughost/backend-kit`) never loads it.
 *
 * @packageDocumentation
 */
export { createRegistry, REGISTRY_API_ROOT, type Registry } from './create-registry.js';
export type { PublisherApiKey, RegistryContext, RegistryOptions } from './registry-context.js';
export { RegistryDatabase } from './storage/registry-database.js';
export type { Migration, ModuleMigrations } from './storage/migration.js';
export { DEFAULT_DATABASE_POOL_SIZE, MIGRATION_LOCK_KEY, PostgresDatabase, type PostgresDatabaseOptions, type SqlScope } from './storage/postgres-database.js';
export { databaseLocation, describeDatabaseUrl, type DatabaseLocation } from './storage/database-url.js';
export {
  openRegistryStore,
  type OpenRegistryStoreOptions,
  type PostgresRegistryStore,
  type RegistryStore,
  type SqliteRegistryStore,
  type StoreRepositories,
} from './storage/registry-store.js';
export { openSqliteStore } from './storage/sqlite-registry-store.js';
export { POSTGRES_MIGRATIONS, openPostgresStore, type PostgresStoreOptions } from './storage/postgres-registry-store.js';
export { STORE_TABLES, copySqliteStoreToPostgres, type SqliteToPostgresOptions, type SqliteToPostgresReport } from './storage/sqlite-to-postgres.js';
export type { BlobStore, StoredBlob } from './storage/blob-store.js';
export { FileBlobStore } from './storage/file-blob-store.js';
export * from './limits/index.js';
export * from './catalog/index.js';
export { REGISTRY_ERROR_STATUS, RegistryError, isRegistryError, type RegistryErrorCode } from './errors/registry-error.js';
export { registryErrorHandler, registryUnansweredAsErrors, type RegistryErrorBody } from './http/registry-error-handler.js';
export { noAuthentication, type AuthenticatedAccount, type RegistryAuthenticate } from './http/authenticated-account.js';
export { createCatalogRouters, type CatalogRoutersOptions } from './routes/catalog-routers.js';
export { createRegistryMetadataRouter, registryCapabilities, type RegistryMetadataRouterOptions } from './routes/registry-metadata.js';
export { createPluginCatalogRouter, type PluginCatalogRouterOptions } from './routes/plugins.js';
export { createPackageDownloadsRouter, LATEST_ALIAS } from './routes/downloads.js';
export { createCheckUpdatesRouter } from './routes/check-updates.js';
export { createReviewsRouter, MAX_REVIEW_TEXT_LENGTH, type ReviewsRouterOptions } from './routes/reviews.js';
export { createStatsRouter, STATS_DAYS } from './routes/stats.js';
export { createTelemetryIntakeRouter, type TelemetryIntakeRouterOptions } from './routes/telemetry.js';
export {
  createPausedVersionsRouter,
  MAX_LIFT_REASON_LENGTH,
  type PausedVersionItem,
  type PausedVersionList,
  type PauseLiftAnswer,
  type PauseLiftView,
} from './routes/paused-versions.js';
export { recordErrorReport, type ReportArrival } from './telemetry/report-intake.js';
export { reporterNetworkOf } from './telemetry/reporter-network.js';
export { TrustedProxies } from './http/trusted-proxies.js';
export { clientAddressOf, registryClientAddress } from './http/client-address.js';
export { isLoopbackHost, parsePublicUrl, publicApiRoot, requirePublicUrlForHost } from './http/public-url.js';
export { normalizeAddress } from './http/ip-address.js';
export { INSTALLED_BASE_DAYS, PAUSE_WINDOW_MS, REPORT_RETENTION_MS } from './telemetry/report-retention.js';
export {
  DEFAULT_PAUSE_THRESHOLD,
  INSTALLED_BASE_PERCENT,
  isPausedState,
  isRolloutPaused,
  pauseLimit,
  pauseRuleAt,
  type PauseCandidate,
} from './updates/rollout-pause.js';
export { findUpdates, type FindUpdatesOptions, type OfferedUpdate } from './updates/find-updates.js';
export { parseCheckUpdatesBody, MAX_INSTALLED_PER_REQUEST, type CheckUpdatesRequest, type InstalledPluginVersion } from './updates/check-updates-body.js';
export { PAGE_MAX, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from './http/request-input.js';
export { REGISTRY_API_VERSION } from './protocol/registry-protocol.js';
export type {
  DownloadInfo,
  RegistryCapability,
  RegistryMetadata,
  RegistryPlugin,
  RegistryPluginRecord,
  RegistryPluginDetail,
  RegistryPluginList,
  RegistryPluginStats,
  RegistryReview,
  RegistryReviewList,
  RegistryVersionEntry,
  UpdateItem,
} from './protocol/registry-protocol.js';
export * from './auth/index.js';
export * from './publishing/index.js';
