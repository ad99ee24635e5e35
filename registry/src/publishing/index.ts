/**
 * The publishing module of the registry: developer keys and their revocation, plugin records,
 * version uploads with the automatic publication rule, the review queue and rollout shares.
 */
export { createPublishingModule, type PublishingModule } from './create-publishing-module.js';
export {
  createPublishingRouter,
  DEFAULT_MAX_PACKAGE_BYTES,
  type PublishingDependencies,
} from './create-publishing-router.js';
export { DeveloperKeys, REVOCATION_LIST_MAX_AGE_MS, type CertifiedKey, type DeveloperKeyStatus } from './developer-keys.js';
export { REVOCATION_LIST_CACHE_SECONDS } from './developer-key-routes.js';
export { MAX_CHANGELOG_LENGTH } from './publish-version.js';
export { MAX_REVIEW_NOTE_LENGTH } from './admin-routes.js';
export { RESERVED_SLUGS, slugFromPluginId } from './plugin-input.js';
export { reviewDecision, type ReviewDecision } from './review-rule.js';
export { requirePublisher, type Publisher, type PublishingAuthenticate } from './publisher-account.js';
export { PUBLISHING_MIGRATIONS, PUBLISHING_MODULE } from './publishing-migrations.js';
export { POSTGRES_PUBLISHING_MIGRATIONS } from './postgres-publishing-migrations.js';
export { SqlitePublishingRepository } from './sqlite-publishing-repository.js';
export { PostgresPublishingRepository } from './postgres-publishing-repository.js';
export type {
  CertifyKeyOutcome,
  DeveloperKeyRecord,
  KeyCertification,
  NewUpload,
  PublishingRepository,
  RecordedUpload,
  RevokedKey,
  VersionUploadFacts,
} from './publishing-repository.js';
export type {
  OwnedPluginList,
  OwnedPluginView,
  OwnedVersionView,
  PermissionRiskView,
  ReviewQueue,
  ReviewQueueItem,
  UploadedVersionView,
} from './publishing-views.js';
