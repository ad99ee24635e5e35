import Router from '@koa/router';
import type { Context } from 'koa';
import { LATEST_VERSION_ALIAS } from '@plughost/host-sdk/core';
import type { CatalogRepository } from '../catalog/catalog-repository.js';
import type { CatalogVersion } from '../catalog/catalog-types.js';
import { notFound } from '../errors/registry-error.js';
import { CACHE_SECONDS, ifNoneMatchHits, sendCachedJson } from '../http/cached-json.js';
import { publicApiRoot } from '../http/public-url.js';
import { downloadInfoBuilder } from '../protocol/views.js';
import type { RegistryContext } from '../registry-context.js';
import { MissingPackages } from '../storage/missing-packages.js';

/** The version alias every download route accepts. */
export const LATEST_ALIAS = LATEST_VERSION_ALIAS;

// A version's bytes never change (a version is never re-uploaded); `latest` moves on publication.
const PACKAGE_CACHE_SECONDS = 3600;
const LATEST_PACKAGE_CACHE_SECONDS = 60;

/** The published version a download route names (`latest` or an exact version), or 404 `not_found`. */
async function requestedVersion(ctx: Context, catalog: CatalogRepository): Promise<{ slug: string; version: CatalogVersion }> {
  const slug = ctx.params.slug ?? '';
  const name = ctx.params.version ?? '';
  const version = name === LATEST_ALIAS ? await catalog.latestPublished(slug) : await catalog.publishedVersion(slug, name);
  if (version === null) throw notFound(name === LATEST_ALIAS ? `No published plugin ${slug}` : `No published version ${name} of ${slug}`);
  return { slug, version };
}

function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * `GET /plugins/<slug>/versions/<version>/download`: Download info `{url, mirrorUrl?, sha256,
 * size}` (cached 60 s), and `GET /plugins/<slug>/versions/<version>/package`: the package bytes
 * exactly as uploaded (`application/octet-stream`, `Content-Length`, strong `ETag` = the quoted
 * SHA-256), counting one download per full `GET` answer (not for `HEAD` or 304). `<version>`
 * accepts `latest`; unknown and unpublished versions are 404 `not_found`; a version whose file is
 * missing from the package storage is 503 `package_unavailable` naming the digest (logged once per
 * digest, see {@link MissingPackages}).
 */
export function createPackageDownloadsRouter(context: RegistryContext, catalog: CatalogRepository): Router {
  const router = new Router({ strict: true, sensitive: true });
  const mirrors = context.options.mirrors ?? [];
  const missing = new MissingPackages(context.logger);

  router.get('/plugins/:slug/versions/:version/download', async (ctx) => {
    const { slug, version } = await requestedVersion(ctx, catalog);
    const downloadInfo = downloadInfoBuilder(publicApiRoot(ctx, context.options), mirrors);
    sendCachedJson(ctx, downloadInfo(slug, version), CACHE_SECONDS.downloadInfo);
  });

  router.get('/plugins/:slug/versions/:version/package', async (ctx) => {
    const { version } = await requestedVersion(ctx, catalog);
    // The catalog names bytes the storage does not have (a lost volume): not a client error.
    if (!(await context.blobs.has(version.sha256))) throw missing.unavailable(version);
    missing.found(version.sha256);
    const isLatest = ctx.params.version === LATEST_ALIAS;
    ctx.status = 200;
    ctx.type = 'application/octet-stream';
    ctx.length = version.sizeBytes;
    const etag = `"${version.sha256}"`;
    ctx.set('ETag', etag);
    ctx.set('Cache-Control', `public, max-age=${isLatest ? LATEST_PACKAGE_CACHE_SECONDS : PACKAGE_CACHE_SECONDS}`);
    ctx.set('Content-Disposition', `attachment; filename="${version.pluginId}-${version.version}.plugpkg"`);
    ctx.set('X-Content-Type-Options', 'nosniff');
    if (ifNoneMatchHits(ctx, etag)) {
      ctx.status = 304;
      return;
    }
    if (ctx.method === 'HEAD') return;
    await catalog.incrementDownloads(version.pluginId, version.id, utcDay(context.now()));
    ctx.body = await context.blobs.open(version.sha256).catch(async (error: unknown) => {
      // Lost since the check above.
      if (!(await context.blobs.has(version.sha256))) throw missing.unavailable(version);
      throw error;
    });
  });

  return router;
}
