import type Router from '@koa/router';
import type { Context } from 'koa';
import { jsonBody } from '@plughost/backend-kit';
import type { PendingVersion } from '../catalog/catalog-types.js';
import { type RegistryError, invalidArgument, notFound } from '../errors/registry-error.js';
import { publicApiRoot } from '../http/public-url.js';
import { jsonObjectBody } from '../http/request-input.js';
import { requireAdminKey } from './admin-key.js';
import { ownedVersionView, reviewQueueItem, type ReviewQueue } from './publishing-views.js';
import type { PublishingServices } from './publishing-services.js';

/** Longest review note (the reason of a rejection). */
export const MAX_REVIEW_NOTE_LENGTH = 2000;

/** A JSON body that may be absent (no `Content-Type`), as an object. */
function optionalJsonObject(ctx: Context): Readonly<Record<string, unknown>> {
  return ctx.request.type === '' && !ctx.request.length ? {} : jsonObjectBody(ctx);
}

function noteOf(body: Readonly<Record<string, unknown>>, field: 'note' | 'reason', required: boolean): string | undefined {
  const unknown = Object.keys(body).find((key) => key !== field);
  if (unknown !== undefined) throw invalidArgument(`Unknown field "${unknown}"; the body is {${field}${required ? '' : '?'}}`);
  const value = body[field];
  if (value === undefined && !required) return undefined;
  if (typeof value !== 'string' || value.trim() === '') throw invalidArgument(`${field} must be a non-empty string`);
  if (value.length > MAX_REVIEW_NOTE_LENGTH) throw invalidArgument(`${field} must be at most ${MAX_REVIEW_NOTE_LENGTH} characters`);
  return value.trim();
}

/** Another reviewer (perhaps on another registry instance) decided the version first. */
function decidedMeanwhile(version: PendingVersion): RegistryError {
  return notFound(`${version.pluginId} ${version.version} is no longer waiting for review: another reviewer decided it`);
}

/**
 * The review routes, guarded by the admin key (see `requireAdminKey`), all `no-store`:
 *
 * - `GET /admin/review-queue` → `{items}`: versions in `pending_review`, oldest first, each with
 *   its plugin, owner, permissions and their risks, layers, and why it needs review;
 * - `GET /admin/versions/<id>/package` → the package bytes of a pending version;
 * - `POST /admin/versions/<id>/approve` `{note?}` → the version, now `published` (`publishedAt` now);
 * - `POST /admin/versions/<id>/reject` `{reason}` → the version, now `rejected`; the reason is
 *   its `reviewNote`, which the owner sees in `GET /plugins/mine`.
 *
 * Only a version waiting for review can be approved or rejected; any other id is 404 `not_found`.
 * A decision is atomic: of two reviewers deciding one version at once, the second gets 404.
 */
export function addAdminRoutes(router: Router, services: PublishingServices): void {
  const { context, catalog, repository } = services;
  const admin = requireAdminKey(context.options.adminKey);

  async function pendingVersion(ctx: Context): Promise<PendingVersion> {
    const id = ctx.params.id ?? '';
    const version = (await catalog.listPending()).find((pending) => pending.id === id);
    if (version === undefined) throw notFound(`No version ${id} is waiting for review`);
    return version;
  }

  router.get('/admin/review-queue', admin, async (ctx) => {
    const pending = await catalog.listPending();
    const facts = await repository.uploadFacts(pending.map((version) => version.id));
    const apiRoot = publicApiRoot(ctx, context.options);
    const body: ReviewQueue = { items: pending.map((version) => reviewQueueItem(version, facts.get(version.id), apiRoot)) };
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });

  router.get('/admin/versions/:id/package', admin, async (ctx) => {
    const version = await pendingVersion(ctx);
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Content-Disposition', `attachment; filename="${version.pluginId}-${version.version}.plugpkg"`);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.type = 'application/octet-stream';
    ctx.length = version.sizeBytes;
    ctx.body = await context.blobs.open(version.sha256);
  });

  router.post('/admin/versions/:id/approve', admin, jsonBody('16kb'), async (ctx) => {
    const note = noteOf(optionalJsonObject(ctx), 'note', false);
    const version = await pendingVersion(ctx);
    const approved = await catalog.decideReview(version.id, 'published', {
      at: context.now().toISOString(),
      ...(note !== undefined ? { reviewNote: note } : {}),
    });
    if (approved === null) throw decidedMeanwhile(version);
    context.logger.info(`Version approved: ${version.pluginId} ${version.version}`);
    ctx.body = { ...ownedVersionView(approved), pluginId: version.pluginId, slug: version.slug };
  });

  router.post('/admin/versions/:id/reject', admin, jsonBody('16kb'), async (ctx) => {
    const reason = noteOf(jsonObjectBody(ctx), 'reason', true);
    const version = await pendingVersion(ctx);
    const rejected = await catalog.decideReview(version.id, 'rejected', { at: context.now().toISOString(), reviewNote: reason ?? null });
    if (rejected === null) throw decidedMeanwhile(version);
    context.logger.info(`Version rejected: ${version.pluginId} ${version.version}`);
    ctx.body = { ...ownedVersionView(rejected), pluginId: version.pluginId, slug: version.slug };
  });
}
