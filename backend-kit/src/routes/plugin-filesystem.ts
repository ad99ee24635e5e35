import { stat } from 'node:fs/promises';
import Router from '@koa/router';
import type { Context } from 'koa';
import { PluginHostError } from '@plughost/host-sdk/core';
import { jsonBody, requireJsonObject } from '../http/body.js';
import { pluginIdOf, validatePluginIdParam } from '../http/params.js';
import type { DataPaths } from '../config/data-paths.js';
import type { BackendLogger } from '../http/logger.js';
import type { DevPluginService } from '../services/dev-plugins/dev-plugin-service.js';
import { deleteFile } from '../services/filesystem/delete-file.js';
import { consentSubjectOf, type FileAuthorizations } from '../services/filesystem/file-authorizations.js';
import { parseReadRequest, parseWriteRequest, refuseUnknownFields } from '../services/filesystem/file-requests.js';
import { FILESYSTEM_LIMITS } from '../services/filesystem/filesystem-limits.js';
import { readByteRange } from '../services/filesystem/read-byte-range.js';
import { readTextRange } from '../services/filesystem/read-text-range.js';
import { requestedPath } from '../services/filesystem/requested-path.js';
import { writeFileReplacing } from '../services/filesystem/write-file-replacing.js';
import { findKnownPlugin } from '../services/plugin-data/known-plugin.js';

/** What {@link createPluginFilesystemRouter} needs. */
export interface PluginFilesystemRouterServices {
  /** With `devPlugins`, to check the plugin is installed or a dev plugin (development mode). */
  readonly paths: DataPaths;
  readonly devPlugins?: Pick<DevPluginService, 'has' | 'manifest'>;
  readonly logger: BackendLogger;
  /** The backend's one consent store (downloads and modpacks check the same). */
  readonly authorizations: FileAuthorizations;
}

/**
 * The file bridge (`readText`, `readBytes`, `writeText`, `writeBytes`, `deleteFile`) and the
 * launcher's consent route, under `/plugins/files/:id/`:
 *
 * - `read` `{path, encoding, start?, length?}` → `{path, content}` or `{path, contentBase64}`
 * - `write` `{path, content}` or `{path, contentBase64}` → `{path}`
 * - `delete` `{path}` → `{path}`
 * - `authorize` `{path}` → `{path, authorized: true}`
 *
 * Paths are absolute, resolved through `..` and symbolic links before the consent check, and the
 * answer's `path` is that resolved path. The launcher's data directory is never reachable. A dev
 * plugin's consents are its own (subject `dev/<id>`), apart from an installed plugin of its id.
 */
export function createPluginFilesystemRouter({ paths, devPlugins, logger, authorizations }: PluginFilesystemRouterServices): Router {
  const router = new Router({ strict: true, sensitive: true });
  router.param('id', validatePluginIdParam);
  const small = jsonBody(FILESYSTEM_LIMITS.smallBodyLimit);

  /** The plugin's id and consent subject (404 `PLUGIN_NOT_FOUND` unless the backend knows it), and the JSON body. */
  async function start(ctx: Context & { params: Record<string, string> }): Promise<{ id: string; subject: string; body: Record<string, unknown> }> {
    const id = pluginIdOf(ctx.params);
    const body = requireJsonObject(ctx);
    const plugin = await findKnownPlugin({ paths, devPlugins }, id);
    ctx.set('Cache-Control', 'no-store');
    return { id, subject: consentSubjectOf(id, plugin.dev), body };
  }

  router.post('/plugins/files/:id/read', small, async (ctx) => {
    const { subject, body } = await start(ctx);
    const request = parseReadRequest(body);
    const path = await requestedPath(request.path);
    // Consent before any existence check, so an unauthorized plugin cannot probe for files.
    await authorizations.requireAuthorization(subject, path);
    ctx.body =
      request.encoding === 'text'
        ? { path, content: await readTextRange(path, request.start, request.length) }
        : { path, contentBase64: Buffer.from(await readByteRange(path, request.start, request.length)).toString('base64') };
  });

  router.post('/plugins/files/:id/write', jsonBody(FILESYSTEM_LIMITS.writeBodyLimit), async (ctx) => {
    const { id, subject, body } = await start(ctx);
    const request = parseWriteRequest(body);
    const path = await requestedPath(request.path);
    await authorizations.requireAuthorization(subject, path);
    await writeFileReplacing(path, request.data);
    logger.info('Plugin wrote a file', { pluginId: id, bytes: request.data.length });
    ctx.body = { path };
  });

  router.post('/plugins/files/:id/delete', small, async (ctx) => {
    const { id, subject, body } = await start(ctx);
    refuseUnknownFields(body, ['path']);
    // The last name is not followed: deleting a link removes the link, not its target.
    const path = await requestedPath(body.path, { followFinalLink: false });
    await authorizations.requireAuthorization(subject, path);
    await deleteFile(path);
    logger.info('Plugin deleted a file', { pluginId: id });
    ctx.body = { path };
  });

  router.post('/plugins/files/:id/authorize', small, async (ctx) => {
    // Bridge calls carry X-Plugin-Id (decisions section 2). Consent comes from the user through
    // the launcher page, never from a plugin granting itself access.
    if (ctx.get('X-Plugin-Id') !== '' || ctx.headers['x-plugin-id'] !== undefined) {
      throw new PluginHostError('INVALID_ARGUMENT', 'Only the launcher can authorize paths; a plugin cannot grant itself access');
    }
    const { id, subject, body } = await start(ctx);
    refuseUnknownFields(body, ['path']);
    const prefix = await requestedPath(body.path);
    const entry = await stat(prefix).catch(() => null);
    // A folder that does not exist yet may be agreed to (a write creates it); a file may not.
    if (entry !== null && !entry.isDirectory()) throw new PluginHostError('INVALID_ARGUMENT', `${prefix} is a file; authorize its folder`);
    await authorizations.authorize(subject, prefix);
    logger.info('User authorized a path prefix for a plugin', { pluginId: id, prefix });
    ctx.body = { path: prefix, authorized: true };
  });

  return router;
}
