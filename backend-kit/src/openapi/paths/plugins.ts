import { INSTALL_ERRORS, PACKAGE_ERRORS } from '../components/install-errors.js';
import { jsonResponse, emptyResponse } from '../components/responses.js';
import { schemaRef } from '../components/schema-ref.js';
import type { RouteDescription } from '../route-description.js';

const DEV_REFUSAL = ' A dev plugin (development mode: `dev` in its PluginInfo) is refused with 400 `INVALID_ARGUMENT`: stop its dev server first.';
const multipartPackage = { multipart: schemaRef('PackageUpload'), description: 'Multipart form with the package in the file field `plugin`.' };

/** `routes/plugins.ts`: the plugin list and lifecycle (decisions section 4). */
export const pluginRoutes: readonly RouteDescription[] = [
  {
    method: 'get',
    path: '/api/plugins/',
    operationId: 'listPlugins',
    tag: 'plugins',
    summary: 'List installed plugins',
    description:
      'Sorted by id. In development mode (`createLocalBackend` option `devPlugins`) the plugins of running dev servers (`.dev-plugins.json` in the data directory) are listed too, with `dev`; a dev plugin takes the place of an installed plugin of the same id while its dev server runs. ' +
      "With `include=manifest,page` each `active` installed plugin also carries its manifest and its page: what the launcher page needs to activate its plugins, in one request instead of two per plugin (the host still checks each manifest's id and shape). A dev plugin never carries either: read its files through the plugin file route.",
    parameters: [
      {
        name: 'include',
        in: 'query',
        description:
          'Comma-separated, each once: `manifest` adds `manifest`, `page` adds `page` to each `active` installed plugin. Anything else is 400 `INVALID_ARGUMENT`.',
        schema: { type: 'string', enum: ['manifest', 'page', 'manifest,page', 'page,manifest'] },
      },
    ],
    responses: {
      200: {
        description: 'Every installed plugin, and the dev plugins.',
        content: {
          'application/json': {
            schema: {
              type: 'array',
              items: {
                allOf: [schemaRef('PluginInfo')],
                type: 'object',
                properties: {
                  manifest: {
                    type: 'object',
                    description:
                      'Only with `include=manifest`, and only for an `active` installed plugin: its installed manifest as the backend validated it (unknown fields left out; docs/package-format.md).',
                  },
                  page: {
                    type: 'string',
                    description:
                      'Only with `include=page`, and only for an `active` installed plugin: the text of its `entry.frontend` as the plugin file route serves it (UTF-8), when that route serves it and it is at most 64 KiB; absent otherwise (fetch it from the file route).',
                  },
                },
              },
            },
          },
        },
      },
    },
    errors: ['INVALID_ARGUMENT'],
  },
  {
    method: 'post',
    path: '/api/plugins/upload',
    operationId: 'uploadPlugin',
    tag: 'plugins',
    summary: 'Install an uploaded package',
    description:
      "Any valid zip is accepted whatever its extension. The signature is mandatory (a certificate issued by the trusted root, by a developer key not on the store's revocation list); dependencies are not checked. An installed id is overwritten only when the signer is the same and the version does not go down (unless `allowDowngrade=true`), keeping `settings.json`, `cache.json` and `enabled`. A manifest or signature file whose JSON repeats a key is `INVALID_MANIFEST`.",
    parameters: [
      {
        name: 'enable',
        in: 'query',
        description: '`true` enables the plugin at once (effective after a restart).',
        schema: { type: 'string', enum: ['true', 'false'] },
      },
      {
        name: 'allowDowngrade',
        in: 'query',
        description: '`true` lets an older version replace the installed one; otherwise that is 409 `DOWNGRADE_REFUSED`.',
        schema: { type: 'string', enum: ['true', 'false'] },
      },
    ],
    body: multipartPackage,
    responses: { 201: jsonResponse('Installed: PluginInfo plus the granted permissions.', 'InstalledPlugin') },
    errors: ['INVALID_ARGUMENT', 'BODY_TOO_LARGE', ...INSTALL_ERRORS],
  },
  {
    method: 'post',
    path: '/api/plugins/install',
    operationId: 'installPluginFromDirectory',
    tag: 'plugins',
    summary: 'Install from a local folder (development)',
    description:
      "Dependencies are checked; the signature is not enforced, but a folder carrying signature files of a developer key on the store's revocation list is refused (`SIGNATURE_INVALID`). An older version replaces the installed one only with `allowDowngrade: true`.",
    body: { json: schemaRef('InstallFromDirectory') },
    responses: { 201: jsonResponse('Installed.', 'PluginInfo') },
    errors: ['INVALID_ARGUMENT', ...INSTALL_ERRORS, 'DEPENDENCY_MISSING'],
  },
  {
    method: 'post',
    path: '/api/plugins/inspect',
    operationId: 'inspectPackage',
    tag: 'plugins',
    summary: 'Read a package without installing it',
    description: 'What the install dialog shows before "Install": manifest, permissions with their risks, signer and signature status.',
    body: multipartPackage,
    responses: { 200: jsonResponse('The package as the install dialog shows it.', 'PackageInspection') },
    errors: ['INVALID_ARGUMENT', 'BODY_TOO_LARGE', ...PACKAGE_ERRORS],
  },
  {
    method: 'put',
    path: '/api/plugins/{id}/state',
    operationId: 'setPluginState',
    tag: 'plugins',
    summary: 'Enable or disable a plugin',
    description: `Takes effect after the launcher restarts; \`status\` is unchanged until then.${DEV_REFUSAL}`,
    body: { json: schemaRef('PluginStateChange') },
    responses: { 200: jsonResponse('The recorded state.', 'PluginState') },
    errors: ['INVALID_ARGUMENT', 'PLUGIN_NOT_FOUND'],
  },
  {
    method: 'delete',
    path: '/api/plugins/{id}',
    operationId: 'uninstallPlugin',
    tag: 'plugins',
    summary: 'Uninstall a plugin',
    description: `Removes \`plugins/<id>/\` (with its settings and cache) and its snapshots.${DEV_REFUSAL}`,
    responses: { 204: emptyResponse('Uninstalled.') },
    errors: ['INVALID_ARGUMENT', 'PLUGIN_NOT_FOUND'],
  },
  {
    method: 'post',
    path: '/api/plugins/{id}/rollback',
    operationId: 'rollbackPlugin',
    tag: 'plugins',
    summary: 'Restore the version replaced by the last overwrite install',
    description: `Carries the current \`settings.json\` and \`cache.json\` over and deletes the replaced version, so \`hasRollback\` is false afterwards. A snapshot signed by a developer key on the store's revocation list is refused with 400 \`SIGNATURE_INVALID\` naming the key, with no override; nothing changes (PluginInfo marks such a snapshot with \`rollbackSignerRevoked\`).${DEV_REFUSAL}`,
    responses: { 200: jsonResponse('The restored version.', 'PluginInfo') },
    errors: ['INVALID_ARGUMENT', 'SIGNATURE_INVALID', 'PLUGIN_NOT_FOUND', 'ROLLBACK_NOT_AVAILABLE'],
  },
];
