import { MAX_OPENABLE_URL_LENGTH } from '../../services/system/openable-url.js';
import { VERSION_TYPES } from '../../services/system/version-type.js';
import type { SchemaObject } from '../openapi-types.js';
import { schemaRef, type SchemaName } from './schema-ref.js';

const text = (description: string): SchemaObject => ({ type: 'string', description });
const bytes = (description: string): SchemaObject => ({ type: 'integer', minimum: 0, description });

/** System information and open-url. */
export const systemSchemas = {
  SystemInfo: {
    type: 'object',
    additionalProperties: false,
    required: [
      'Os',
      'Architecture',
      'OsName',
      'OsVersion',
      'OsVersionId',
      'OsDisplayName',
      'Memory',
      'AvailableMemory',
      'LauncherName',
      'LauncherVersion',
      'VersionType',
      'Developers',
      'CoreDependencies',
    ],
    properties: {
      Os: text('Platform family: `Linux`, `Windows`, `macOS`, `FreeBSD`, `OpenBSD`, else what the kernel calls itself.'),
      Architecture: text('Processor architecture: `x64`, `arm64`, `arm`, `x86`, ... (Node names, `ia32` reported as `x86`).'),
      OsName: text('Linux: os-release `NAME` (e.g. `Debian GNU/Linux`); `macOS`; `Windows`.'),
      OsVersion: text('Linux: `VERSION` (e.g. `12 (bookworm)`); macOS: `14.4.1 (23E224)`; Windows: `11 (10.0.22631)`.'),
      OsVersionId: text('Linux: `VERSION_ID` (e.g. `12`); macOS: `14.4.1`; Windows: `11`.'),
      OsDisplayName: text('Linux: `PRETTY_NAME`; macOS: `macOS 14.4.1`; Windows: the product name, e.g. `Windows 11 Pro`.'),
      GitCommit: text('The commit the launcher was built from; absent when the launcher does not say.'),
      Memory: bytes('Total memory in bytes.'),
      AvailableMemory: bytes('Memory available to new programs in bytes (Linux: `MemAvailable`, which counts reclaimable cache).'),
      LauncherName: text("The launcher's name."),
      LauncherVersion: text("The launcher's version."),
      VersionType: {
        type: 'string',
        enum: [...VERSION_TYPES],
        description: 'From the pre-release tag of `LauncherVersion`: `alpha`, `beta`, `rc`, `dev`; any other tag is `dev`; none is `stable`.',
      },
      Developers: { type: 'array', items: schemaRef('LauncherDeveloper') },
      CoreDependencies: { type: 'array', items: schemaRef('CoreDependency') },
    },
  },
  LauncherDeveloper: {
    type: 'object',
    additionalProperties: false,
    required: ['name', 'role'],
    properties: { name: { type: 'string' }, role: { type: 'string' } },
  },
  CoreDependency: {
    type: 'object',
    additionalProperties: false,
    required: ['name', 'version', 'license'],
    properties: { name: { type: 'string' }, version: { type: 'string' }, license: { type: 'string' } },
  },
  OpenUrlRequest: {
    type: 'object',
    required: ['url'],
    properties: {
      url: {
        type: 'string',
        format: 'uri',
        maxLength: MAX_OPENABLE_URL_LENGTH,
        pattern: '^[Hh][Tt][Tt][Pp][Ss]?:',
        description: 'An absolute http or https URL. Any other scheme (`file:`, `javascript:`, `data:`, ...) or a relative URL gives 400 `INVALID_ARGUMENT`.',
      },
    },
  },
  OpenUrlResult: {
    type: 'object',
    additionalProperties: false,
    required: ['opened'],
    properties: { opened: { const: true, description: 'The URL was handed to the system opener.' } },
  },
} as const satisfies Partial<Record<SchemaName, SchemaObject>>;
