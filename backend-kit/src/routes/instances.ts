import Router from '@koa/router';
import { PluginHostError } from '@plughost/host-sdk/core';
import type { InstanceStore } from '../services/instances/instance-store.js';

/**
 * The launcher's instances, read-only: `GET /instance` (list) and `GET /instance/:instanceId`.
 * Instances are created by modpack installs or by the launcher's own code (`InstanceStore`).
 */
export function createInstancesRouter({ instances }: { readonly instances: Pick<InstanceStore, 'list' | 'get'> }): Router {
  const router = new Router({ strict: true, sensitive: true });
  router.get('/instance', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await instances.list();
  });
  router.get('/instance/:instanceId', async (ctx) => {
    const instance = await instances.get(ctx.params.instanceId ?? '');
    if (!instance) throw new PluginHostError('INSTANCE_NOT_FOUND', `No instance ${ctx.params.instanceId}`);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = instance;
  });
  return router;
}
