import type { ResponseObject, SchemaObject } from '../openapi-types.js';
import type { RouteDescription } from '../route-description.js';

const PATH: SchemaObject = {
  type: 'string',
  minLength: 1,
  maxLength: 4096,
  description: 'An absolute path. It is resolved through `..` and symbolic links before the consent check.',
};

function json(description: string, properties: Record<string, SchemaObject>): ResponseObject {
  return {
    description,
    content: {
      'application/json': {
        schema: { type: 'object', required: Object.keys(properties), additionalProperties: false, properties },
      },
    },
  };
}

const RESOLVED = { type: 'string', description: 'The resolved path that was used.' } as const;
const CONSENT =
  " Needs the user's consent for a folder containing the path, else 403 `FS_AUTHORIZATION_REQUIRED` whose body adds `prefix`, the folder to ask about. " +
  "`/proc`, `/sys`, `/dev` (and the same pseudo file systems mounted elsewhere, and Windows device paths such as `\\\\.\\` and `\\\\?\\`) and the launcher's data directory are never reachable, whatever the consent, checked after links are resolved: 403 `FS_PATH_FORBIDDEN`, before the consent check.";

/** `routes/plugin-filesystem.ts`: the file bridge with per-plugin, per-folder consent. */
export const pluginFilesystemRoutes: readonly RouteDescription[] = [
  {
    method: 'post',
    path: '/api/plugins/files/{id}/read',
    operationId: 'readPluginFile',
    tag: 'filesystem',
    summary: 'Read a file for a plugin (readText, readBytes)',
    description:
      '`encoding: "text"` decodes UTF-8 and counts `start` and `length` in characters (Unicode code points); `"base64"` counts bytes and reads only those. ' +
      'At most 16 MiB per answer.' +
      CONSENT,
    body: {
      json: {
        type: 'object',
        required: ['path'],
        additionalProperties: false,
        properties: {
          path: PATH,
          encoding: { enum: ['text', 'base64'], default: 'text' },
          start: { type: 'integer', minimum: 0, default: 0 },
          length: { type: 'integer', minimum: 0, description: 'Default: to the end.' },
        },
      },
    },
    responses: {
      200: {
        description: '`content` for text, `contentBase64` for bytes.',
        content: {
          'application/json': {
            schema: {
              oneOf: [
                { type: 'object', required: ['path', 'content'], additionalProperties: false, properties: { path: RESOLVED, content: { type: 'string' } } },
                {
                  type: 'object',
                  required: ['path', 'contentBase64'],
                  additionalProperties: false,
                  properties: { path: RESOLVED, contentBase64: { type: 'string', contentEncoding: 'base64' } },
                },
              ],
            },
          },
        },
      },
    },
    errors: ['PLUGIN_NOT_FOUND', 'FS_AUTHORIZATION_REQUIRED', 'FS_PATH_FORBIDDEN', 'FS_FILE_NOT_FOUND'],
  },
  {
    method: 'post',
    path: '/api/plugins/files/{id}/write',
    operationId: 'writePluginFile',
    tag: 'filesystem',
    summary: 'Write a file for a plugin (writeText, writeBytes)',
    description: `Exactly one of \`content\` (stored as UTF-8) and \`contentBase64\`. Parent folders are created; the file is replaced atomically. At most 16 MiB.${CONSENT}`,
    body: {
      json: {
        type: 'object',
        required: ['path'],
        additionalProperties: false,
        properties: { path: PATH, content: { type: 'string' }, contentBase64: { type: 'string', contentEncoding: 'base64' } },
        oneOf: [{ required: ['content'] }, { required: ['contentBase64'] }],
      },
    },
    responses: { 200: json('Written.', { path: RESOLVED }) },
    errors: ['PLUGIN_NOT_FOUND', 'FS_AUTHORIZATION_REQUIRED', 'FS_PATH_FORBIDDEN'],
  },
  {
    method: 'post',
    path: '/api/plugins/files/{id}/delete',
    operationId: 'deletePluginFile',
    tag: 'filesystem',
    summary: 'Delete a file for a plugin (deleteFile)',
    description: `Files only: a folder is 400 \`INVALID_ARGUMENT\`. A symbolic link is removed itself, never its target.${CONSENT}`,
    body: { json: { type: 'object', required: ['path'], additionalProperties: false, properties: { path: PATH } } },
    responses: { 200: json('Deleted.', { path: RESOLVED }) },
    errors: ['PLUGIN_NOT_FOUND', 'FS_AUTHORIZATION_REQUIRED', 'FS_PATH_FORBIDDEN', 'FS_FILE_NOT_FOUND'],
  },
  {
    method: 'post',
    path: '/api/plugins/files/{id}/authorize',
    operationId: 'authorizePluginPath',
    tag: 'filesystem',
    summary: "Record the user's consent to a folder",
    description:
      'Called by the launcher page after the user agreed; the consent covers the folder and everything below it (at separator boundaries) and persists across restarts. ' +
      'A request with an `X-Plugin-Id` header (a bridge call made for a plugin) is refused with 400 `INVALID_ARGUMENT`, as is a file. ' +
      "A folder in `/proc`, `/sys`, `/dev` (or a Windows device path) or the launcher's data directory is refused with 403 `FS_PATH_FORBIDDEN`; a broader folder (even `/`) is recorded but never covers those places.",
    body: { json: { type: 'object', required: ['path'], additionalProperties: false, properties: { path: PATH } } },
    responses: { 200: json('Recorded.', { path: { type: 'string', description: 'The resolved folder that was authorized.' }, authorized: { const: true } }) },
    errors: ['PLUGIN_NOT_FOUND', 'FS_PATH_FORBIDDEN'],
  },
];
