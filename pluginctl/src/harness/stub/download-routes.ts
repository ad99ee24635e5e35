/** Downloads, modpack installs and instances, simulated in memory (see `downloads.ts`). */
import { parseAddTaskRequest, parseModpackInstallRequest } from '@plughost/backend-kit';
import { PROGRESS_EVENT } from './downloads.js';
import { openEventStream } from './event-stream.js';
import { readJsonObject, sendErrorAnswer, sendJson } from './http-io.js';
import { isMockErrorAnswer } from './mock-overrides.js';
import { requestedPath } from './requested-path.js';
import { type StubContext, callerOf } from './stub-context.js';
import { type StubRoute, route } from './stub-router.js';

export function downloadRoutes(context: StubContext): StubRoute[] {
  const { downloads, instances, mock } = context;
  return [
    route('POST', '/api/plugins/download/tasks', async ({ incoming, response }) => {
      const caller = await callerOf(context, incoming);
      const request = parseAddTaskRequest(await readJsonObject(incoming));
      if (isMockErrorAnswer(mock.downloadStart)) sendErrorAnswer(response, mock.downloadStart);
      else sendJson(response, 201, downloads.addTask(caller, request));
    }),
    route('GET', '/api/plugins/download/tasks', async ({ incoming, response }) => {
      sendJson(response, 200, downloads.list(await callerOf(context, incoming)));
    }),
    route('GET', '/api/plugins/download/tasks/:taskId', async ({ incoming, params, response }) => {
      // `download.progress` of an unknown id resolves to JSON null.
      sendJson(response, 200, downloads.get(await callerOf(context, incoming), params.taskId ?? ''));
    }),
    route('DELETE', '/api/plugins/download/tasks/:taskId', async ({ incoming, params, response }) => {
      sendJson(response, 200, downloads.cancel(await callerOf(context, incoming), params.taskId ?? ''));
    }),
    route('POST', '/api/plugins/download/tasks/:taskId/pause', async ({ incoming, params, response }) => {
      sendJson(response, 200, downloads.pause(await callerOf(context, incoming), params.taskId ?? ''));
    }),
    route('POST', '/api/plugins/download/tasks/:taskId/resume', async ({ incoming, params, response }) => {
      sendJson(response, 200, downloads.resume(await callerOf(context, incoming), params.taskId ?? ''));
    }),
    route('GET', '/api/plugins/download/events', async ({ incoming, response }) => {
      const caller = await callerOf(context, incoming);
      const stream = openEventStream(response);
      for (const snapshot of downloads.list(caller)) stream.send(PROGRESS_EVENT, snapshot);
      const unsubscribe = downloads.subscribe((snapshot) => {
        if (downloads.isVisible(caller, snapshot)) stream.send(PROGRESS_EVENT, snapshot);
      });
      await stream.done;
      unsubscribe();
    }),

    route('POST', '/api/modpack/install-direct', async ({ incoming, response }) => {
      const caller = await callerOf(context, incoming);
      const request = parseModpackInstallRequest(await readJsonObject(incoming));
      const gameDir = requestedPath(request.gameDir, 'gameDir');
      if (request.source.kind === 'local') requestedPath(request.source.path, 'path');
      const answer = mock.modpackInstall;
      if (isMockErrorAnswer(answer)) {
        sendErrorAnswer(response, answer);
        return;
      }
      const instance = instances.create({
        ...(answer ? { id: answer.instanceId } : {}),
        name: request.name,
        gameDir,
        maxMemory: request.maxMemory,
        versionIsolation: request.versionIsolation,
        ...(caller !== null ? { createdBy: caller } : {}),
      });
      downloads.addModpack(caller, instance.id, instance.name, instance.gameDir);
      sendJson(response, 202, { instanceId: instance.id });
    }),

    route('GET', '/api/instance', ({ response }) => sendJson(response, 200, instances.list())),
    route('GET', '/api/instance/:instanceId', ({ params, response }) => sendJson(response, 200, instances.get(params.instanceId ?? ''))),
  ];
}
