import { MODPACK_LOADERS } from '../../services/modpacks/modpack-loaders.js';
import { DEFAULT_MODPACK_MEMORY } from '../../services/modpacks/modpack-request.js';
import type { SchemaObject } from '../openapi-types.js';
import { schemaRef, type SchemaName } from './schema-ref.js';

const SOURCE_ID_RULE = 'Checked when the install runs: 1 to 64 letters, digits, `_` or `-`, else the session fails with `MODPACK_SOURCE_INVALID`.';

/** The modpack install request and answer, and the launcher's instances. */
export const instanceSchemas = {
  ModpackInstallRequest: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'gameDir'],
    description:
      'A local pack (`path`) or an online one (`type`, `projectId`, `fileId`), never both. Checked in this order: unknown field (`INVALID_ARGUMENT`), `id` (`MODPACK_NAME_REQUIRED`), `gameDir` (`MODPACK_GAME_DIR_REQUIRED`), the source (`MODPACK_SOURCE_INVALID`, or `MODPACK_SOURCE_REQUIRED` when there is none), `maxMemory`, `versionIsolation`.',
    properties: {
      id: {
        type: 'string',
        minLength: 1,
        maxLength: 100,
        pattern: '\\S',
        description:
          'The name of the new instance (trimmed). Missing or blank: 400 `MODPACK_NAME_REQUIRED`; longer than 100 characters: 400 `INVALID_ARGUMENT`.',
      },
      gameDir: {
        type: 'string',
        minLength: 1,
        maxLength: 4096,
        pattern: '\\S',
        description:
          "The absolute path of the instance's game directory (created when missing; an existing file there is 400 `INVALID_ARGUMENT`). Missing or blank: 400 `MODPACK_GAME_DIR_REQUIRED`. A plugin needs consent for it outside the download and instance folders (the prompt names the directory itself).",
      },
      path: {
        type: 'string',
        minLength: 1,
        pattern: '\\.([Mm][Rr][Pp][Aa][Cc][Kk]|[Zz][Ii][Pp])$',
        description:
          'An absolute path to a local `.mrpack` or `.zip` pack (any letter case), read with the same consent rule. A file that does not exist is 400 `MODPACK_FILE_NOT_FOUND`, checked after consent.',
      },
      type: { type: 'string', enum: ['mr', 'modrinth', 'cf', 'curseforge', 'ftb'], description: 'The online platform (lower case).' },
      projectId: { type: 'string', minLength: 1, description: `Modrinth project id, CurseForge project id or FTB pack id. ${SOURCE_ID_RULE}` },
      fileId: { type: 'string', minLength: 1, description: `Modrinth version id, CurseForge file id or FTB version id. ${SOURCE_ID_RULE}` },
      maxMemory: { type: 'integer', minimum: 512, maximum: 1_048_576, default: DEFAULT_MODPACK_MEMORY, description: 'Memory for the game in MiB.' },
      versionIsolation: { type: 'boolean', default: false, description: 'Whether the instance keeps its own game version files.' },
    },
    oneOf: [
      { title: 'Local pack', required: ['path'], not: { required: ['type'] } },
      { title: 'Online pack', required: ['type', 'projectId', 'fileId'], not: { required: ['path'] } },
    ],
  },
  ModpackInstallResult: {
    type: 'object',
    additionalProperties: false,
    required: ['instanceId'],
    properties: {
      instanceId: { type: 'string', description: 'The instance created for the pack; the install session carries it as `instanceId`.' },
    },
  },
  LauncherInstance: {
    type: 'object',
    required: ['id', 'name', 'gameDir', 'maxMemory', 'versionIsolation', 'createdAt'],
    description: 'A game instance. A launcher with its own `InstanceStore` may add fields.',
    properties: {
      id: { type: 'string', description: 'Stable id; the default store makes it from the name (`my-pack-3f9a1c`).' },
      name: { type: 'string', description: 'The name the user sees.' },
      gameDir: { type: 'string', description: "The instance's root directory (absolute, resolved)." },
      maxMemory: { type: 'integer', description: 'Memory for the game in MiB.' },
      versionIsolation: { type: 'boolean', description: 'Whether the instance keeps its own game version files.' },
      gameVersion: { type: 'string', description: 'Minecraft version, once a pack said which.' },
      loader: { type: 'string', description: `The mod loader (${MODPACK_LOADERS.map((loader) => `\`${loader}\``).join(', ')}); absent for vanilla.` },
      loaderVersion: { type: 'string' },
      modpack: {
        type: 'object',
        required: ['name'],
        properties: { name: { type: 'string' }, version: { type: 'string' } },
        description: 'The pack it was installed from, once the install has read it.',
      },
      createdBy: { ...schemaRef('PluginId'), description: 'The plugin that created it; absent for the launcher.' },
      createdAt: { type: 'string', format: 'date-time' },
    },
  },
} as const satisfies Partial<Record<SchemaName, SchemaObject>>;
