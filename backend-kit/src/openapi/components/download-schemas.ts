import { DOWNLOAD_CATEGORIES, DOWNLOAD_STATUSES } from '@plughost/host-sdk/core';
import type { SchemaObject } from '../openapi-types.js';
import { schemaRef, type SchemaName } from './schema-ref.js';

const STATUS: SchemaObject = {
  type: 'string',
  enum: [...DOWNLOAD_STATUSES],
  description:
    '`queued` (waiting for a free slot) → `downloading` → (`extracting`) → `completed`, `failed` or `cancelled`, which are final. ' +
    '`paused` ↔ `queued` through pause and resume; a pause keeps the partial files.',
};

const count = (description: string): SchemaObject => ({ type: 'integer', minimum: 0, description });
const time = (description: string): SchemaObject => ({ type: 'string', format: 'date-time', description });

// The limits of `services/downloads/download-request.ts` (not exported there).
const URL_FIELD: SchemaObject = {
  type: 'string',
  format: 'uri',
  minLength: 1,
  maxLength: 8192,
  pattern: '^[Hh][Tt][Tt][Pp][Ss]?:',
  description:
    'An absolute http or https URL. Fetched through the SSRF guard of the proxy when the task runs: a refused address fails the task (not this request).',
};
const COMMON_FIELDS: Readonly<Record<string, SchemaObject>> = {
  extract: {
    type: 'boolean',
    default: false,
    description:
      "Unpack the downloaded zip into its own folder once verified (the package reader's rules; entries replace files of the same name; a link in the destination is refused), then delete the archive, whether or not extraction succeeded.",
  },
  headers: {
    type: 'object',
    maxProperties: 32,
    additionalProperties: { type: 'string' },
    description:
      "Request headers, validated like the proxy's: CR, LF or NUL refused; `Host`, hop-by-hop headers, `Content-Length`, `Expect` and `Accept-Encoding` dropped.",
  },
  name: { type: 'string', minLength: 1, maxLength: 200, description: 'Display name in the download centre; default the file name.' },
};

/** The download manager's snapshot and the `download.addTask` request and answer. */
export const downloadSchemas = {
  DownloadSnapshot: {
    type: 'object',
    additionalProperties: false,
    required: [
      'sessionId',
      'status',
      'stage',
      'progress',
      'speed',
      'currentFile',
      'totalFiles',
      'completedFiles',
      'failedFiles',
      'error',
      'isPaused',
      'instanceId',
      'kind',
      'name',
      'targetPath',
      'bytesDownloaded',
      'bytesTotal',
      'pluginId',
      'createdAt',
      'updatedAt',
    ],
    properties: {
      sessionId: { type: 'string', format: 'uuid', description: 'The session id; equal to the `taskId` `POST /api/plugins/download/tasks` answered.' },
      status: STATUS,
      stage: {
        type: 'string',
        description:
          'What is happening now, in words a person understands (`Waiting for a free download slot`, `Starting`, `Downloading`, `Extracting`, `Paused`, `Done`, `Failed`, ...). For display only; not API.',
      },
      progress: {
        type: 'number',
        minimum: 0,
        maximum: 100,
        description:
          'Percent done, one decimal: by bytes when every size is known, else by completed files. Never 100 before the session completed (at most 99.9); 100 once `completed`.',
      },
      speed: {
        type: 'integer',
        minimum: 0,
        description: 'Bytes per second over the last 3 seconds; 0 when nothing is moving and whenever the session is not `downloading` or `extracting`.',
      },
      currentFile: { type: ['string', 'null'], description: 'The file being transferred (its name in its folder), or null.' },
      totalFiles: count('Files the session installs (1 for a file task; the files of the pack for a modpack).'),
      completedFiles: count('Files verified and in place.'),
      failedFiles: count('Files that could not be installed (wrong hash or size, unreachable source); modpacks only.'),
      error: { type: ['string', 'null'], description: 'Why the session failed, naming the file and what to do; null unless `failed`.' },
      isPaused: { type: 'boolean', description: 'True exactly when `status` is `paused`.' },
      instanceId: { type: ['string', 'null'], description: 'The instance the files go into (category downloads, modpacks), or null.' },
      kind: { type: 'string', enum: ['file', 'modpack'], description: '`file` for `download.addTask`, `modpack` for a modpack install.' },
      name: { type: 'string', description: "Display name: the task's `name`, default the file name; the instance name for modpacks." },
      targetPath: { type: 'string', description: 'The final file (file tasks) or the game directory (modpacks), resolved.' },
      bytesDownloaded: count('Bytes on disk so far, resumed bytes included.'),
      bytesTotal: { type: ['integer', 'null'], minimum: 0, description: 'Sum of the sizes declared so far, or null when a size is unknown.' },
      pluginId: {
        oneOf: [schemaRef('PluginId'), { type: 'null' }],
        description: 'The plugin that started the session (`X-Plugin-Id`), or null for the launcher.',
      },
      createdAt: time('When the session was created (ISO 8601).'),
      updatedAt: time('When the snapshot last changed (ISO 8601).'),
    },
  },
  AddTaskRequest: {
    description:
      'Either `{url, targetPath}` or `{url, instanceId, category, fileName}`, each with optional `extract`, `headers` and `name`. Any other field, or fields of both shapes, is 400 `INVALID_ARGUMENT`.',
    oneOf: [
      {
        title: 'To a path',
        type: 'object',
        additionalProperties: false,
        required: ['url', 'targetPath'],
        properties: {
          url: URL_FIELD,
          targetPath: {
            type: 'string',
            minLength: 1,
            maxLength: 4096,
            description:
              'The absolute path of the file to write. Its folder is resolved through links (the last name is replaced, not followed). A plugin needs consent outside the download and instance folders; `plugins/` and `backend/` are refused for everyone.',
          },
          ...COMMON_FIELDS,
        },
      },
      {
        title: 'Into an instance',
        type: 'object',
        additionalProperties: false,
        required: ['url', 'instanceId', 'category', 'fileName'],
        properties: {
          url: URL_FIELD,
          instanceId: { type: 'string', minLength: 1, description: 'A known instance (404 `INSTANCE_NOT_FOUND` otherwise).' },
          category: { type: 'string', enum: [...DOWNLOAD_CATEGORIES], description: "The folder of the instance's game directory the file goes into." },
          fileName: {
            type: 'string',
            minLength: 1,
            pattern: '^[^./\\\\][^/\\\\]*$',
            description: 'One file name: no folders, not starting with a dot, and passing the package path rule (400 `UNSAFE_ENTRY_PATH` otherwise).',
          },
          ...COMMON_FIELDS,
        },
      },
    ],
  },
  AddedTask: {
    type: 'object',
    additionalProperties: false,
    required: ['taskId', 'status', 'targetPath'],
    properties: {
      taskId: { type: 'string', format: 'uuid', description: 'The session id, for the task routes and the `sessionId` of events.' },
      status: { ...STATUS, description: '`downloading` when a slot was free, else `queued`.' },
      targetPath: { type: 'string', description: 'The resolved final path.' },
    },
  },
} as const satisfies Partial<Record<SchemaName, SchemaObject>>;
