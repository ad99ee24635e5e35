import type Router from '@koa/router';
import type { CatalogRepository } from '../catalog/catalog-repository.js';
import type { RegistryAuthenticate } from '../http/authenticated-account.js';
import type { RegistryContext } from '../registry-context.js';
import { createCheckUpdatesRouter } from './check-updates.js';
import { createPackageDownloadsRouter } from './downloads.js';
import { createPausedVersionsRouter } from './paused-versions.js';
import { createPluginCatalogRouter } from './plugins.js';
import { createRegistryMetadataRouter } from './registry-metadata.js';
import { createReviewsRouter } from './reviews.js';
import { createStatsRouter } from './stats.js';
import { createTelemetryIntakeRouter } from './telemetry.js';

/** Options of {@link createCatalogRouters}. */
export interface CatalogRoutersOptions {
  /** True when the auth module's routes are mounted beside these (declares `auth` in `GET /registry`). */
  readonly authMounted: boolean;
  /** Resolves the account of a write (reviews); the auth module provides it. */
  readonly authenticate: RegistryAuthenticate;
  /** Telemetry intake limit per client address (default 120 a minute). */
  readonly telemetryRateLimit?: { readonly limit?: number; readonly windowMs?: number };
}

/**
 * The routers of the read protocol and its optional catalog endpoints, to mount under the API root
 * (`/api/v1`): metadata, list and detail, downloads, check-updates, reviews, stats, telemetry
 * intake and the admin view of paused versions. Routes with a fixed segment where a slug could stand (`/plugins/mine` of the publishing
 * module) must be mounted before these.
 */
export function createCatalogRouters(context: RegistryContext, catalog: CatalogRepository, options: CatalogRoutersOptions): Router[] {
  return [
    createRegistryMetadataRouter(context, catalog, { authMounted: options.authMounted }),
    createCheckUpdatesRouter(context, catalog),
    createPluginCatalogRouter(catalog, { now: () => context.now() }),
    createPackageDownloadsRouter(context, catalog),
    createReviewsRouter(context, catalog, { authenticate: options.authenticate }),
    createStatsRouter(context, catalog),
    createTelemetryIntakeRouter(context, catalog, options.telemetryRateLimit ? { rateLimit: options.telemetryRateLimit } : {}),
    createPausedVersionsRouter(context, catalog),
  ];
}
