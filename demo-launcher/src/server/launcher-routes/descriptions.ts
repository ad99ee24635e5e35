import type { RouteDescription, SchemaObject } from '@plughost/backend-kit';
import { DOWNLOAD_CATEGORIES, DOWNLOAD_STATUSES } from '@plughost/host-sdk/core';
import { RESOURCE_TYPES } from '../resources/catalogue.js';
import { PAGE_SIZE } from '../resources/resource-search.js';

const TAG = 'launcher-routes';
const json = (description: string, schema: SchemaObject) => ({ description, content: { 'application/json': { schema } } });
const query = (name: string, description: string, schema: SchemaObject) => ({ name, in: 'query' as const, description, schema });

const stringList: SchemaObject = { type: 'array', items: { type: 'string' } };

const publicPreferences: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['language', 'theme', 'defaultMemoryMiB', 'closeOnLaunch', 'telemetryEnabled', 'updateCheckHours'],
  description: 'What a plugin may know to fit in. Nothing secret: no token, installation id or store addresses.',
  properties: {
    language: { type: 'string', description: 'BCP 47 tag of the launcher interface language (format numbers and dates with it).' },
    theme: { enum: ['dark', 'light'] },
    defaultMemoryMiB: { type: 'integer', description: 'Memory a new instance gets.' },
    closeOnLaunch: { type: 'boolean', description: 'Whether the launcher window closes when a game starts.' },
    telemetryEnabled: { type: 'boolean', description: 'Whether the user opted in to plugin error reports.' },
    updateCheckHours: { type: 'number', description: 'Hours between plugin update checks.' },
  },
};

const resource: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name', 'summary', 'type', 'category', 'author', 'version', 'gameVersions', 'loaders', 'downloads', 'sizeBytes', 'fileName', 'updatedAt'],
  properties: {
    id: { type: 'string', pattern: '^[a-z0-9]+(-[a-z0-9]+)*$', description: 'Pass it to `/resource-download/start`.' },
    name: { type: 'string' },
    summary: { type: 'string' },
    type: { enum: RESOURCE_TYPES },
    category: { enum: DOWNLOAD_CATEGORIES, description: 'The instance folder it installs into (`mods`, `resourcepacks`, ...).' },
    author: { type: 'string' },
    version: { type: 'string' },
    gameVersions: { ...stringList, description: 'Game versions it works with.' },
    loaders: { ...stringList, description: 'Mod loaders it works with; empty for packs, which need none.' },
    downloads: { type: 'integer', minimum: 0 },
    sizeBytes: { type: 'integer', minimum: 0, description: 'Exact size of its file.' },
    fileName: { type: 'string', description: 'The file name it is installed under.' },
    updatedAt: { type: 'string', format: 'date-time' },
  },
};

const launchRecord: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['instanceId', 'instanceName', 'outcome', 'startedAt', 'endedAt', 'exitCode', 'arguments', 'lines'],
  properties: {
    instanceId: { type: 'string' },
    instanceName: { type: 'string' },
    outcome: { enum: ['exited', 'prevented'], description: '`prevented`: a plugin hook stopped the launch and nothing ran.' },
    startedAt: { type: 'string', format: 'date-time' },
    endedAt: { type: 'string', format: 'date-time' },
    exitCode: { type: ['integer', 'null'], description: 'The game exit code; `null` when it never started.' },
    arguments: { type: 'object', description: 'The `launchGame` arguments after the hooks (the requested ones when prevented).' },
    preventedReason: { type: 'string', description: 'The reason the preventing hook gave, if any.' },
    lines: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['at', 'text'],
        properties: { at: { type: 'string', format: 'date-time' }, text: { type: 'string' } },
      },
    },
  },
};

/** The OpenAPI descriptions of the demo's launcher routes, served with the backend's in development mode. */
export const DEMO_LAUNCHER_ROUTE_DESCRIPTIONS: readonly RouteDescription[] = [
  {
    method: 'get',
    path: '/api/settings',
    operationId: 'getPublicPreferences',
    tag: TAG,
    summary: "The launcher's public preferences (read-only)",
    description:
      'Reachable by plugins through `callBackend` (the demo allowlists `/settings`). Read-only: every other method answers 405. The full launcher settings (`/launcher/settings`) serve the launcher page only.',
    responses: { 200: json('The preferences.', publicPreferences) },
  },
  {
    method: 'get',
    path: '/api/resources/search',
    operationId: 'searchResources',
    tag: TAG,
    summary: 'Search the local catalogue of game resources',
    description:
      'Reachable by plugins through `callBackend` (the demo allowlists `/resources/search`). Searches the demo catalogue (`demo-launcher/resources/catalogue.json`), the most downloaded first. An unknown parameter is 400 `INVALID_ARGUMENT`.',
    parameters: [
      query('q', 'Words that must all appear in the name, summary or author (any case).', { type: 'string', maxLength: 200 }),
      query('type', 'Only this kind.', { enum: RESOURCE_TYPES }),
      query('gameVersion', 'Only what works with this game version (`1.20.4`).', { type: 'string' }),
      query('loader', 'Only mods for this loader, and packs (which need none).', { type: 'string' }),
      query('page', 'From 1.', { type: 'integer', minimum: 1, default: 1 }),
      query('pageSize', 'Items per page.', { type: 'integer', minimum: 1, maximum: PAGE_SIZE.maximum, default: PAGE_SIZE.default }),
    ],
    responses: {
      200: json('One page of results.', {
        type: 'object',
        additionalProperties: false,
        required: ['total', 'page', 'pageSize', 'items'],
        properties: { total: { type: 'integer' }, page: { type: 'integer' }, pageSize: { type: 'integer' }, items: { type: 'array', items: resource } },
      }),
    },
    errors: ['INVALID_ARGUMENT'],
  },
  {
    method: 'post',
    path: '/api/resource-download/start',
    operationId: 'startResourceDownload',
    tag: TAG,
    summary: 'Install a catalogue resource into an instance',
    description:
      "Reachable by plugins through `callBackend` (the demo allowlists `/resource-download/start`). Downloads the resource's file into the instance's category folder through the download manager, as `download.addTask` would: the same consent rule (an instance outside the launcher's instances folder needs the calling plugin's consent), queue limits and progress in the download centre. The task belongs to the calling plugin (`X-Plugin-Id`), which follows it with `download.progress`. A resource for another game version or mod loader than the instance's is 400 `INVALID_ARGUMENT`.",
    body: {
      json: {
        type: 'object',
        additionalProperties: false,
        required: ['resourceId', 'instanceId'],
        properties: {
          resourceId: { type: 'string', description: 'From `/resources/search`.' },
          instanceId: { type: 'string', description: 'From `/instance`.' },
        },
      },
    },
    responses: {
      201: json('Queued (or already downloading).', {
        type: 'object',
        additionalProperties: false,
        required: ['taskId', 'status', 'targetPath', 'resourceId', 'instanceId'],
        properties: {
          taskId: { type: 'string', format: 'uuid', description: 'For `download.progress` and the download centre.' },
          status: { enum: DOWNLOAD_STATUSES },
          targetPath: { type: 'string' },
          resourceId: { type: 'string' },
          instanceId: { type: 'string' },
        },
      }),
    },
    errors: ['NOT_FOUND', 'INSTANCE_NOT_FOUND', 'PLUGIN_NOT_FOUND', 'FS_AUTHORIZATION_REQUIRED', 'FS_PATH_FORBIDDEN', 'DOWNLOAD_QUEUE_FULL'],
  },
  {
    method: 'post',
    path: '/api/launcher/instances/{instanceId}/launch',
    operationId: 'launchInstance',
    tag: TAG,
    summary: 'Launch an instance (launcher page only)',
    description:
      "The launch after the launcher page ran the `launchGame` hooks: `arguments` are the hooks' final arguments; `prevented` records that a hook prevented it (nothing runs). The demo runs no real game: the game process is simulated. Sets `lastPlayedAt` when the game ran and keeps the log as the instance's last launch. Answers when the game stopped; a second launch of a running instance is 400 `INVALID_ARGUMENT`. A call for a plugin (`X-Plugin-Id`) is 404.",
    body: {
      json: {
        type: 'object',
        additionalProperties: false,
        required: ['arguments'],
        properties: {
          arguments: {
            type: 'object',
            description: 'The `launchGame` arguments; fields a hook added are kept.',
            properties: {
              memory: { type: 'integer', minimum: 256, maximum: 1_048_576, description: 'MiB.' },
              javaArgs: { ...stringList, maxItems: 64 },
              gameArgs: { ...stringList, maxItems: 64 },
            },
          },
          prevented: { type: 'object', additionalProperties: false, properties: { reason: { type: 'string', maxLength: 500 } } },
        },
      },
    },
    responses: { 200: json('The log of the launch.', launchRecord) },
    errors: ['INSTANCE_NOT_FOUND', 'NOT_FOUND'],
  },
  {
    method: 'get',
    path: '/api/launcher/instances/{instanceId}/last-launch',
    operationId: 'getLastLaunch',
    tag: TAG,
    summary: "An instance's last launch (launcher page only)",
    responses: { 200: json('The log, or `null` when it was never launched.', { oneOf: [launchRecord, { type: 'null' }] }) },
    errors: ['INSTANCE_NOT_FOUND', 'NOT_FOUND'],
  },
];
