import type { HeaderObject, ParameterObject, ReferenceObject } from '../openapi-types.js';
import { schemaRef } from './schema-ref.js';

/**
 * Path parameters by the placeholder name routes use. The builder attaches them to every path
 * that contains `{name}`, so a route entry never repeats them.
 */
export const PATH_PARAMETERS: Readonly<Record<string, ParameterObject>> = {
  id: {
    name: 'id',
    in: 'path',
    required: true,
    description: 'The plugin id. A value that does not match the id pattern gives 400 `INVALID_ARGUMENT` before anything is read.',
    schema: schemaRef('PluginId'),
  },
  path: {
    name: 'path',
    in: 'path',
    required: true,
    description:
      "The file's path inside the package, e.g. `dist/index.html`. It spans the rest of the URL and may contain `/` (percent-encode other reserved characters); paths that leave the plugin folder are refused.",
    schema: { type: 'string', minLength: 1 },
  },
  taskId: {
    name: 'taskId',
    in: 'path',
    required: true,
    description:
      "A download session id (`taskId` of `download.addTask`, `sessionId` of a snapshot). A plugin is answered for another owner's session as if it did not exist.",
    schema: { type: 'string', minLength: 1 },
  },
  instanceId: {
    name: 'instanceId',
    in: 'path',
    required: true,
    description: 'An instance id (`id` of LauncherInstance).',
    schema: { type: 'string', minLength: 1 },
  },
};

/**
 * Header parameters several routes share, listed under `components.parameters` beside the path
 * parameters; a route names them with {@link parameterRef}.
 */
export const SHARED_PARAMETERS = {
  XPluginId: {
    name: 'X-Plugin-Id',
    in: 'header',
    required: false,
    description:
      'The plugin a bridge call is made for; the host sets it, plugins never choose it. Absent: the launcher itself, which needs no path consent and sees every download. ' +
      "Present: the plugin must be installed or a dev plugin in development mode (else 404 `PLUGIN_NOT_FOUND`; a value that is not one plugin id is 400 `INVALID_ARGUMENT`); it owns what it starts, sees and controls only its own downloads, and needs the user's consent for paths outside the launcher's download and instance folders.",
    schema: schemaRef('PluginId'),
  },
} as const satisfies Record<string, ParameterObject>;

/** The name of a shared header parameter. */
export type SharedParameterName = keyof typeof SHARED_PARAMETERS;

/** `{$ref}` to a shared header parameter. */
export function parameterRef(name: SharedParameterName): ReferenceObject {
  return { $ref: `#/components/parameters/${name}` };
}

/** Response headers several routes share. */
export const SHARED_HEADERS = {
  WwwAuthenticate: { description: 'Always `Bearer`.', schema: { type: 'string', const: 'Bearer' } },
  ETag: { description: 'Strong validator of the file; send it back in `If-None-Match` or `If-Range`.', schema: { type: 'string' } },
  LastModified: { description: "The file's modification time (HTTP date).", schema: { type: 'string' } },
  AcceptRanges: { description: 'Always `bytes`.', schema: { type: 'string', const: 'bytes' } },
  ContentRange: { description: '`bytes start-end/size` (206) or `bytes */size` (416).', schema: { type: 'string' } },
  ContentSecurityPolicy: {
    description: "Always `sandbox allow-scripts`: a plugin file opened directly never runs with the backend's origin.",
    schema: { type: 'string', const: 'sandbox allow-scripts' },
  },
  XContentTypeOptions: { description: 'Always `nosniff`.', schema: { type: 'string', const: 'nosniff' } },
  CacheControl: { description: 'Caching rule of the answer.', schema: { type: 'string' } },
} as const satisfies Record<string, HeaderObject>;

/** The name of a shared header. */
export type SharedHeaderName = keyof typeof SHARED_HEADERS;

/** `{$ref}` to a shared header. */
export function headerRef(name: SharedHeaderName): { readonly $ref: string } {
  return { $ref: `#/components/headers/${name}` };
}
