import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Router from '@koa/router';
import { PluginHostError } from '@plughost/host-sdk/core';
import type { CatalogRepository } from '../catalog/catalog-repository.js';
import type { RegistryContext } from '../registry-context.js';
import { addAdminRoutes } from './admin-routes.js';
import { DeveloperKeys } from './developer-keys.js';
import { addDeveloperKeyRoutes } from './developer-key-routes.js';
import { addPluginRoutes } from './plugin-routes.js';
import { VersionPublisher } from './publish-version.js';
import type { PublishingAuthenticate } from './publisher-account.js';
import type { PublishingRepository } from './publishing-repository.js';
import type { PublishingServices } from './publishing-services.js';
import { readRootKey } from './root-key.js';
import { addVersionRoutes } from './version-routes.js';

/** Largest package upload when `maxPackageBytes` is not configured: 256 MiB. */
export const DEFAULT_MAX_PACKAGE_BYTES = 256 * 1024 * 1024;

/** What the publishing routes need from the rest of the registry. */
export interface PublishingDependencies {
  /** The catalog the versions go into. */
  readonly catalog: CatalogRepository;
  /** Who is calling; the auth module's `authenticate`. */
  readonly authenticate: PublishingAuthenticate;
  /** The module's own records; default the store's (`context.store.publishing`). */
  readonly repository?: PublishingRepository;
}

/** The folder uploads are received and extracted in: on the package store's file system, so a package is hard-linked, not copied. */
export function publishingWorkDirectory(context: RegistryContext): string {
  return join(context.options.dataDirectory, 'tmp', 'publishing');
}

function maxPackageBytesOf(context: RegistryContext): number {
  const value = context.options.maxPackageBytes ?? DEFAULT_MAX_PACKAGE_BYTES;
  if (!(Number.isSafeInteger(value) && value > 0)) {
    throw new PluginHostError('INVALID_ARGUMENT', `maxPackageBytes must be a whole number of bytes above 0 (got ${value})`);
  }
  return value;
}

/** The router and the services behind it. */
export interface PublishingRouterParts {
  readonly router: Router;
  readonly services: PublishingServices;
}

/** Builds the services and the router; {@link createPublishingRouter} and the module share it. */
export function buildPublishingRouter(context: RegistryContext, dependencies: PublishingDependencies): PublishingRouterParts {
  const root = readRootKey(context.options.rootPrivateKey);
  const maxPackageBytes = maxPackageBytesOf(context);
  const repository = dependencies.repository ?? context.store.publishing;
  const uploadDirectory = publishingWorkDirectory(context);
  mkdirSync(uploadDirectory, { recursive: true });
  const keys = new DeveloperKeys(repository, root, () => context.now());
  const services: PublishingServices = {
    context,
    catalog: dependencies.catalog,
    repository,
    authenticate: dependencies.authenticate,
    keys,
    publisher: new VersionPublisher({ context, catalog: dependencies.catalog, repository, keys, root, workDirectory: uploadDirectory, maxPackageBytes }),
    uploadDirectory,
    maxPackageBytes,
  };
  const router = new Router({ strict: true, sensitive: true });
  addDeveloperKeyRoutes(router, services);
  addPluginRoutes(router, services);
  addVersionRoutes(router, services);
  addAdminRoutes(router, services);
  return { router, services };
}

/**
 * The publishing routes, relative to the API root (mount the router under `/api/v1`, before the
 * catalog's routers so that `/plugins/mine` wins over `/plugins/<slug>`):
 *
 * | Route | Answer |
 * |---|---|
 * | `POST /developer/keys` `{publicKey}` | 201 (200 for the current key) `{keyId, certificate, revoked}` |
 * | `GET /developer/keys/revoked` | `{issuedAt, revoked, signature}`, root-signed, cached 60 s |
 * | `GET /developer/keys/<keyId>` | the caller's key `{keyId, certified, certifiedAt, expiresAt, revoked, revokedAt, certificate}` |
 * | `GET /plugins/mine` | `{items}`: the caller's plugins with every version and its status |
 * | `POST /plugins` `{id, slug?, name, ...}` | 201 (200 when the caller owns it already) the plugin record |
 * | `POST /plugins/<id>/versions` multipart `package`, `changelog?`, `orgId?` | 201 the version, `published` or `pending_review` |
 * | `PATCH /plugins/<id>/versions/<version>` `{rolloutPercent}` | the version |
 * | `GET /admin/review-queue` | `{items}` pending versions (admin key) |
 * | `GET /admin/versions/<id>/package` | a pending version's bytes (admin key) |
 * | `POST /admin/versions/<id>/approve` `{note?}` / `reject` `{reason}` | the version (admin key) |
 *
 * Errors are `{error: {code, message}}` (registry codes plus `REGISTRY_ERROR_STATUS`); the
 * registry's error middleware writes them.
 *
 * @throws PluginHostError `INVALID_ARGUMENT` for an unusable root key or `maxPackageBytes`.
 * @example
 * ```ts
 * const router = createPublishingRouter(context, { catalog, authenticate: auth.authenticate });
 * api.use(router.routes(), router.allowedMethods({ throw: false }));
 * ```
 */
export function createPublishingRouter(context: RegistryContext, dependencies: PublishingDependencies): Router {
  return buildPublishingRouter(context, dependencies).router;
}
