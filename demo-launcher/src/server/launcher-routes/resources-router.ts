import Router from '@koa/router';
import { jsonBody, requireJsonObject, type LauncherInstance, type LauncherRouteServices } from '@plughost/backend-kit';
import { PluginHostError } from '@plughost/host-sdk/core';
import { CATEGORY_OF, type CatalogueResource, type ResourceCatalogue } from '../resources/catalogue.js';
import type { ResourceHost } from '../resources/resource-host.js';
import { parseResourceQuery, searchResources } from '../resources/resource-search.js';

/** What the resource routes need. */
export interface ResourcesRouterServices extends Pick<LauncherRouteServices, 'callerOf' | 'addDownloadTask' | 'instances'> {
  readonly catalogue: ResourceCatalogue;
  readonly host: Pick<ResourceHost, 'urlOf'>;
}

function invalid(message: string, field: string): PluginHostError {
  return new PluginHostError('INVALID_ARGUMENT', message, { field });
}

function parseStartRequest(body: Record<string, unknown>): { resourceId: string; instanceId: string } {
  for (const field of Object.keys(body)) if (field !== 'resourceId' && field !== 'instanceId') throw invalid(`Unknown field "${field}"`, field);
  const { resourceId, instanceId } = body;
  if (typeof resourceId !== 'string' || resourceId === '') throw invalid('"resourceId" must be the id of a catalogue resource', 'resourceId');
  if (typeof instanceId !== 'string' || instanceId === '') throw invalid('"instanceId" must be the id of an instance (GET /instance)', 'instanceId');
  return { resourceId, instanceId };
}

/** Refuses what the instance cannot run: another game version, or a mod for another loader (or none). */
function requireFits(resource: CatalogueResource, instance: LauncherInstance): void {
  if (instance.gameVersion !== undefined && !resource.gameVersions.includes(instance.gameVersion)) {
    throw invalid(
      `${resource.name} ${resource.version} is for Minecraft ${resource.gameVersions.join(', ')}; ${instance.name} runs ${instance.gameVersion}. Search with gameVersion=${instance.gameVersion}`,
      'instanceId',
    );
  }
  if (resource.loaders.length > 0 && (instance.loader === undefined || !resource.loaders.includes(instance.loader))) {
    const has = instance.loader === undefined ? 'has no mod loader' : `runs ${instance.loader}`;
    throw invalid(`${resource.name} is a mod for ${resource.loaders.join(', ')}; ${instance.name} ${has}`, 'instanceId');
  }
}

/**
 * The resource routes plugins reach through `callBackend`:
 *
 * - `GET /resources/search?q&type&gameVersion&loader&page&pageSize` → `{total, page, pageSize,
 *   items}` from the demo's local catalogue;
 * - `POST /resource-download/start` `{resourceId, instanceId}` → 201 `{taskId, status,
 *   targetPath, resourceId, instanceId}`: the file goes into the instance's category folder
 *   through the backend's download manager (progress in the download centre; the task belongs to
 *   the calling plugin, which may follow it with `download.progress`).
 */
export function createResourcesRouter(services: ResourcesRouterServices): Router {
  const { catalogue, host } = services;
  const router = new Router({ strict: true, sensitive: true });
  router.get('/resources/search', (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = searchResources(catalogue, parseResourceQuery(ctx.query));
  });
  router.post('/resource-download/start', jsonBody('16kb'), async (ctx) => {
    const caller = await services.callerOf(ctx);
    const { resourceId, instanceId } = parseStartRequest(requireJsonObject(ctx));
    const resource = catalogue.get(resourceId);
    if (!resource)
      throw new PluginHostError('NOT_FOUND', `No resource ${resourceId} in the catalogue; find one with GET /resources/search`, { field: 'resourceId' });
    const instance = await services.instances.get(instanceId);
    if (!instance) throw new PluginHostError('INSTANCE_NOT_FOUND', `No instance ${instanceId}`, { field: 'instanceId' });
    requireFits(resource, instance);
    const added = await services.addDownloadTask(caller, {
      url: host.urlOf(resource),
      destination: { kind: 'instance', instanceId, category: CATEGORY_OF[resource.type], fileName: resource.fileName },
      extract: false,
      headers: {},
      name: `${resource.name} ${resource.version}`,
    });
    ctx.status = 201;
    ctx.body = { ...added, resourceId, instanceId };
  });
  return router;
}
