import Router from '@koa/router';
import type { Context } from 'koa';
import { PluginHostError } from '@plughost/host-sdk/core';
import { jsonBody, requireJsonObject } from '../http/body.js';
import { callerOf, type Caller } from '../http/caller.js';
import { openEventStream } from '../http/event-stream-response.js';
import type { DataPaths } from '../config/data-paths.js';
import type { DevPluginService } from '../services/dev-plugins/dev-plugin-service.js';
import type { BackendLogger } from '../http/logger.js';
import type { DownloadManager } from '../services/downloads/download-manager.js';
import { parseAddTaskRequest } from '../services/downloads/download-request.js';
import type { DownloadSnapshot } from '../services/downloads/download-snapshot.js';
import type { FileTasks } from '../services/downloads/file-task.js';

/** The SSE event type of a snapshot (decisions section 4). */
export const PROGRESS_EVENT = 'progress';

function isVisibleTo(caller: Caller, snapshot: DownloadSnapshot): boolean {
  return caller.pluginId === null || snapshot.pluginId === caller.pluginId;
}

/** What {@link createDownloadsRouter} needs. */
export interface DownloadsRouterServices {
  /** With `devPlugins`, to check the caller (`X-Plugin-Id`) is an installed plugin or a dev plugin (development mode): its tasks go where an installed plugin's go, under the same per-id queue limits. */
  readonly paths: DataPaths;
  readonly devPlugins?: Pick<DevPluginService, 'has' | 'manifest'>;
  readonly logger: BackendLogger;
  readonly downloads: DownloadManager;
  readonly fileTasks: FileTasks;
}

/**
 * The download manager's routes under `/plugins/download/`:
 *
 * - `POST tasks` (`download.addTask`) → 201 `{taskId, status, targetPath}`
 * - `GET tasks` → snapshots; `GET tasks/:taskId` → snapshot or `null`
 * - `DELETE tasks/:taskId` → cancels (a finished task is removed from the list) → snapshot
 * - `POST tasks/:taskId/pause` → snapshot; `POST tasks/:taskId/resume` resumes a paused task or
 *   retries a failed one → snapshot
 * - `GET events` → server-sent events, type `progress`, data one snapshot as JSON; the current
 *   snapshots first, then every change.
 *
 * A plugin (`X-Plugin-Id`) sees and controls only its own tasks; another's task is answered as
 * if it did not exist. The launcher sees all.
 */
export function createDownloadsRouter({ paths, devPlugins, logger, downloads, fileTasks }: DownloadsRouterServices): Router {
  const router = new Router({ strict: true, sensitive: true });
  const plugins = { paths, devPlugins };

  async function ownTask(ctx: Context & { params: Record<string, string> }): Promise<{ caller: Caller; id: string }> {
    const caller = await callerOf(ctx, plugins);
    const id = ctx.params.taskId ?? '';
    const snapshot = downloads.get(id);
    if (!snapshot || !isVisibleTo(caller, snapshot)) throw new PluginHostError('DOWNLOAD_NOT_FOUND', `No download task ${id}`);
    return { caller, id };
  }

  router.post('/plugins/download/tasks', jsonBody('64kb'), async (ctx) => {
    const caller = await callerOf(ctx, plugins);
    const request = parseAddTaskRequest(requireJsonObject(ctx));
    ctx.status = 201;
    ctx.body = await fileTasks.start(caller, request);
  });

  router.get('/plugins/download/tasks', async (ctx) => {
    const caller = await callerOf(ctx, plugins);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = downloads.list(caller.pluginId === null ? undefined : { pluginId: caller.pluginId });
  });

  router.get('/plugins/download/tasks/:taskId', async (ctx) => {
    const caller = await callerOf(ctx, plugins);
    const snapshot = downloads.get(ctx.params.taskId ?? '');
    ctx.set('Cache-Control', 'no-store');
    // `download.progress` resolves to null for an unknown id; JSON null, not an empty body.
    ctx.type = 'application/json';
    ctx.body = JSON.stringify(snapshot && isVisibleTo(caller, snapshot) ? snapshot : null);
  });

  router.delete('/plugins/download/tasks/:taskId', async (ctx) => {
    const { caller, id } = await ownTask(ctx);
    ctx.body = await downloads.cancel(id);
    logger.info('Download cancelled', { sessionId: id, by: caller.pluginId ?? 'launcher' });
  });

  router.post('/plugins/download/tasks/:taskId/pause', async (ctx) => {
    const { id } = await ownTask(ctx);
    ctx.body = await downloads.pause(id);
  });

  router.post('/plugins/download/tasks/:taskId/resume', async (ctx) => {
    const { id } = await ownTask(ctx);
    ctx.body = downloads.resume(id);
  });

  router.get('/plugins/download/events', async (ctx) => {
    const caller = await callerOf(ctx, plugins);
    const stream = openEventStream(ctx);
    for (const snapshot of downloads.list(caller.pluginId === null ? undefined : { pluginId: caller.pluginId })) stream.send(PROGRESS_EVENT, snapshot);
    const unsubscribe = downloads.subscribe((snapshot) => {
      if (isVisibleTo(caller, snapshot)) stream.send(PROGRESS_EVENT, snapshot);
    });
    await Promise.race([stream.done, downloads.whenClosed]);
    unsubscribe();
    if (!stream.closed) stream.end();
  });

  return router;
}
