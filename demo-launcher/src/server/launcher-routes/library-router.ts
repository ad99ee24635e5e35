import Router from '@koa/router';
import type { Middleware } from 'koa';
import { jsonBody, requireJsonObject } from '@plughost/backend-kit';
import { PluginHostError } from '@plughost/host-sdk/core';
import { runGameSession, type GameSessionOptions } from '../library/game-session.js';
import type { LaunchRecords } from '../library/launch-records.js';
import { parseLaunchRequest } from '../library/launch-request.js';
import type { LibraryStore } from '../library/library-instance.js';

/** What the library routes need. */
export interface LibraryRouterServices {
  readonly library: LibraryStore;
  readonly launches: LaunchRecords;
  readonly session: GameSessionOptions;
}

/**
 * Refuses calls the host made for a plugin (`X-Plugin-Id`) as an unknown route: launching is the
 * launcher's own action. `callBackend` never forwards `/launcher/*` anyway; plugins take part in
 * a launch through `registerHook('launchGame', ...)`.
 */
const launcherPageOnly: Middleware = async function launcherPageOnly(ctx, next) {
  if (ctx.headers['x-plugin-id'] !== undefined) throw new PluginHostError('NOT_FOUND', `No route ${ctx.method} ${ctx.path}`);
  await next();
};

/**
 * The launcher page's library routes:
 *
 * - `POST /launcher/instances/:instanceId/launch` `{arguments, prevented?}`: the launch after the
 *   page ran the `launchGame` hooks; runs the simulated game (or logs the prevention), sets
 *   `lastPlayedAt` when the game ran, keeps the log as the instance's last launch and answers it;
 * - `GET /launcher/instances/:instanceId/last-launch`: that log, or `null`.
 *
 * One launch of an instance at a time: another while it runs answers 400 `INVALID_ARGUMENT`.
 */
export function createLibraryRouter({ library, launches, session }: LibraryRouterServices): Router {
  const router = new Router({ strict: true, sensitive: true });
  const running = new Set<string>();
  router.use('/launcher/instances', launcherPageOnly);

  async function requireInstance(instanceId: string) {
    const instance = await library.get(instanceId);
    if (!instance) throw new PluginHostError('INSTANCE_NOT_FOUND', `No instance ${instanceId}`);
    return instance;
  }

  router.get('/launcher/instances/:instanceId/last-launch', async (ctx) => {
    const instance = await requireInstance(ctx.params.instanceId ?? '');
    ctx.set('Cache-Control', 'no-store');
    // `null` is a body of its own here, not "no answer" (which the backend turns into 404).
    ctx.type = 'application/json';
    ctx.body = JSON.stringify(await launches.last(instance.id));
  });

  router.post('/launcher/instances/:instanceId/launch', jsonBody('64kb'), async (ctx) => {
    const instance = await requireInstance(ctx.params.instanceId ?? '');
    const request = parseLaunchRequest(requireJsonObject(ctx));
    if (running.has(instance.id)) throw new PluginHostError('INVALID_ARGUMENT', `${instance.name} is already running; wait until it stops`);
    running.add(instance.id);
    try {
      const record = await runGameSession(instance, request, session);
      if (record.outcome === 'exited') await library.update(instance.id, { lastPlayedAt: record.startedAt });
      await launches.keep(record);
      ctx.body = record;
    } finally {
      running.delete(instance.id);
    }
  });
  return router;
}
