import { headerRef, parameterRef } from '../components/parameters.js';
import { jsonResponse } from '../components/responses.js';
import { schemaRef } from '../components/schema-ref.js';
import type { ResponseObject } from '../openapi-types.js';
import type { RouteDescription } from '../route-description.js';

const noStore = { headers: { 'Cache-Control': headerRef('CacheControl') } };

const OWNERSHIP =
  " With `X-Plugin-Id` only that plugin's sessions count (another owner's session is answered as if it did not exist); without it, the launcher's view covers every session.";

function snapshot(description: string): ResponseObject {
  return jsonResponse(description, 'DownloadSnapshot');
}

const common = {
  tag: 'downloads',
  parameters: [parameterRef('XPluginId')],
} as const;

/** `routes/downloads.ts`: the download manager (`download.*`), shared by file tasks and modpack installs. */
export const downloadRoutes: readonly RouteDescription[] = [
  {
    ...common,
    method: 'post',
    path: '/api/plugins/download/tasks',
    operationId: 'addDownloadTask',
    summary: 'Queue a file download (download.addTask)',
    description:
      'Resolves the target, checks the path rule and queues the transfer; the bytes arrive later (watch `GET /api/plugins/download/events`). ' +
      "The file is written to `.<name>.<first 8 characters of the task id>.part` next to the target and renamed only once complete; it goes through the same SSRF guard as the proxy, so a refused address fails the task with the guard's message. Files larger than `downloadLimitBytes` (4 GiB by default) fail. " +
      'Nobody, not even the launcher, may write into `/proc`, `/sys`, `/dev` (or a Windows device path), `plugins/` or `backend/`, checked after links are resolved: 403 `FS_PATH_FORBIDDEN`. ' +
      "Consent belongs to one plugin: a plugin needs none inside `<data>/downloads` and `<data>/instances`, never writes elsewhere in the data directory (403 `FS_PATH_FORBIDDEN`), and anywhere else needs a folder the user agreed to for that same plugin: 403 `FS_AUTHORIZATION_REQUIRED` with `prefix`, the target's folder (an instance destination asks about the instance's game directory). An instance another plugin created widens nothing. " +
      "Per plugin, at most 2 tasks run at once (`downloadsRunningPerPlugin`) and 32 wait, queued or paused (`downloadsQueuedPerPlugin`); one more is 429 `DOWNLOAD_QUEUE_FULL`. The launcher's own tasks have only the global limit (`downloadConcurrency`, 3).",
    body: { json: schemaRef('AddTaskRequest') },
    responses: { 201: jsonResponse('Queued (or already started when a slot was free).', 'AddedTask') },
    errors: [
      'INVALID_ARGUMENT',
      'UNSAFE_ENTRY_PATH',
      'PLUGIN_NOT_FOUND',
      'INSTANCE_NOT_FOUND',
      'FS_AUTHORIZATION_REQUIRED',
      'FS_PATH_FORBIDDEN',
      'DOWNLOAD_QUEUE_FULL',
    ],
  },
  {
    ...common,
    method: 'get',
    path: '/api/plugins/download/tasks',
    operationId: 'listDownloadTasks',
    summary: 'List download sessions',
    description:
      'Every session the manager still holds, oldest first: queued, running and paused ones, and up to 200 finished ones (older finished sessions are dropped).' +
      OWNERSHIP,
    responses: {
      200: {
        description: 'Snapshots, oldest first.',
        ...noStore,
        content: { 'application/json': { schema: { type: 'array', items: schemaRef('DownloadSnapshot') } } },
      },
    },
    errors: ['INVALID_ARGUMENT', 'PLUGIN_NOT_FOUND'],
  },
  {
    ...common,
    method: 'get',
    path: '/api/plugins/download/tasks/{taskId}',
    operationId: 'getDownloadTask',
    summary: 'One download session (download.progress)',
    description: `An unknown id, or a session the caller may not see, is not an error: the answer is JSON \`null\`.${OWNERSHIP}`,
    responses: {
      200: {
        description: 'The snapshot, or `null`.',
        ...noStore,
        content: { 'application/json': { schema: { oneOf: [schemaRef('DownloadSnapshot'), { type: 'null' }] } } },
      },
    },
    errors: ['INVALID_ARGUMENT', 'PLUGIN_NOT_FOUND'],
  },
  {
    ...common,
    method: 'delete',
    path: '/api/plugins/download/tasks/{taskId}',
    operationId: 'cancelDownloadTask',
    summary: 'Cancel a download session, or remove a finished one',
    description:
      'A queued, running or paused session becomes `cancelled` and its partial files are removed (files a modpack install already verified stay). A session that is already `completed`, `failed` or `cancelled` is removed from the list instead, and its last snapshot answered.' +
      OWNERSHIP,
    responses: { 200: snapshot('The session after the cancel (or as it was when removed).') },
    errors: ['INVALID_ARGUMENT', 'PLUGIN_NOT_FOUND', 'DOWNLOAD_NOT_FOUND'],
  },
  {
    ...common,
    method: 'post',
    path: '/api/plugins/download/tasks/{taskId}/pause',
    operationId: 'pauseDownloadTask',
    summary: 'Pause a download session',
    description:
      'A queued or running session becomes `paused`; the partial files stay for the resume. Pausing a paused session answers it unchanged; a finished one is 400 `INVALID_ARGUMENT`.' +
      OWNERSHIP,
    responses: { 200: snapshot('The paused session.') },
    errors: ['INVALID_ARGUMENT', 'PLUGIN_NOT_FOUND', 'DOWNLOAD_NOT_FOUND'],
  },
  {
    ...common,
    method: 'post',
    path: '/api/plugins/download/tasks/{taskId}/resume',
    operationId: 'resumeDownloadTask',
    summary: 'Resume a paused download session',
    description:
      'The session is queued again and continues where it stopped: a partial file is continued with a `Range` request (started over when the server ignores it). A `failed` session is retried the same way. Any other is 400 `INVALID_ARGUMENT`. Retrying a failed session of a plugin that already has its most tasks waiting is 429 `DOWNLOAD_QUEUE_FULL`.' +
      OWNERSHIP,
    responses: { 200: snapshot('The session, `queued` again (or already `downloading` when a slot was free).') },
    errors: ['INVALID_ARGUMENT', 'PLUGIN_NOT_FOUND', 'DOWNLOAD_NOT_FOUND', 'DOWNLOAD_QUEUE_FULL'],
  },
  {
    ...common,
    method: 'get',
    path: '/api/plugins/download/events',
    operationId: 'downloadEvents',
    summary: 'Download progress as server-sent events',
    description:
      'A `text/event-stream` (sent with the bearer token, so browsers read it with `fetch` and `readEventStream` from `@plughost/host-sdk/core`, not `EventSource`). ' +
      'Every event has the type `progress` and one DownloadSnapshot as JSON in `data`. The current snapshots are sent first, then every change: state changes at once, byte progress at most every 250 ms per session. ' +
      'A `: keep-alive` comment every 15 s keeps idle connections open. A client that stops reading is disconnected once 1 MiB is waiting for it; it reconnects and gets the current state again.' +
      OWNERSHIP,
    responses: {
      200: {
        description: 'The event stream; it ends only when the client disconnects.',
        headers: { 'Cache-Control': headerRef('CacheControl') },
        content: {
          'text/event-stream': {
            schema: { type: 'string', description: 'Events `event: progress` with `data: <DownloadSnapshot JSON>`, and keep-alive comments.' },
            example: 'event: progress\ndata: {"sessionId":"0b5c6f1e-…","status":"downloading","progress":42.5,…}\n\n',
          },
        },
      },
    },
    errors: ['INVALID_ARGUMENT', 'PLUGIN_NOT_FOUND'],
  },
];
