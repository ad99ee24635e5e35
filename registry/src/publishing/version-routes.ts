import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { findPluginIdProblem, isValidPluginId } from '@plughost/host-sdk/core';
import { jsonBody } from '@plughost/backend-kit';
import { RegistryError, invalidArgument, notFound } from '../errors/registry-error.js';
import { jsonObjectBody } from '../http/request-input.js';
import { packageUpload, uploadTextField, uploadedPackagePath } from './package-upload.js';
import { checkChangelog } from './publish-version.js';
import { requirePublisher, type Publisher } from './publisher-account.js';
import { ownedVersionView } from './publishing-views.js';
import type { PublishingServices } from './publishing-services.js';

function pluginIdParam(ctx: Context): string {
  const id = ctx.params.id ?? '';
  if (!isValidPluginId(id)) throw invalidArgument(`The plugin id ${findPluginIdProblem(id) ?? 'is invalid'}`);
  return id;
}

/**
 * This registry has no organisations (`/orgs/*`): an `orgId` is refused rather than ignored, since
 * the plugin would otherwise become the uploader's own for good.
 */
function refuseOrganisation(orgId: string | undefined): void {
  if (orgId !== undefined && orgId.trim() !== '') {
    throw invalidArgument('This registry has no organisations: publish without orgId, as your own account');
  }
}

function rolloutPercentOf(body: Readonly<Record<string, unknown>>): number {
  const unknown = Object.keys(body).find((key) => key !== 'rolloutPercent');
  if (unknown !== undefined) throw invalidArgument(`Unknown field "${unknown}"; the body is {rolloutPercent}`);
  const value = body.rolloutPercent;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 100) {
    throw invalidArgument('rolloutPercent must be a whole number from 0 to 100');
  }
  return value;
}

/**
 * `POST /plugins/<id>/versions` (multipart: file `package`, optional `changelog` of at most 4000
 * characters, optional `orgId`) → 201 with the version, `published` or `pending_review` (see
 * `VersionPublisher`). The caller and the ownership of `<id>` are checked before the body is read.
 * `PATCH /plugins/<id>/versions/<version>` `{rolloutPercent}` by the owner, on a published version.
 */
export function addVersionRoutes(router: Router, services: PublishingServices): void {
  const { catalog, authenticate, publisher: versions } = services;

  const authorizeUpload: Middleware = async function authorizeUpload(ctx, next) {
    const publisher = await requirePublisher(ctx, authenticate);
    await versions.uploadTarget(pluginIdParam(ctx), publisher);
    ctx.state.publisher = publisher;
    await next();
  };

  router.post('/plugins/:id/versions', authorizeUpload, ...packageUpload(services.uploadDirectory, services.maxPackageBytes), async (ctx) => {
    const changelog = checkChangelog(uploadTextField(ctx, 'changelog'));
    refuseOrganisation(uploadTextField(ctx, 'orgId'));
    const uploaded = await versions.publish({
      publisher: ctx.state.publisher as Publisher,
      pluginId: pluginIdParam(ctx),
      packagePath: uploadedPackagePath(ctx),
      changelog,
    });
    ctx.status = 201;
    ctx.body = uploaded;
  });

  router.patch('/plugins/:id/versions/:version', jsonBody('16kb'), async (ctx) => {
    const publisher = await requirePublisher(ctx, authenticate);
    const id = pluginIdParam(ctx);
    const rolloutPercent = rolloutPercentOf(jsonObjectBody(ctx));
    const plugin = await catalog.getPlugin(id);
    if (plugin === null) throw notFound(`No plugin ${id}`);
    if (plugin.ownerAccountId !== publisher.accountId) throw new RegistryError('forbidden', `Only the owner of ${id} can change its versions`);
    const name = ctx.params.version ?? '';
    const version = await catalog.version(plugin.slug, name);
    if (version === null) throw notFound(`No version ${name} of ${id}`);
    if (version.status !== 'published') {
      throw new RegistryError('version_not_published', `${id} ${name} is ${version.status}; the rollout share applies to published versions`);
    }
    ctx.body = ownedVersionView(await catalog.setRolloutPercent(version.id, rolloutPercent));
  });
}
