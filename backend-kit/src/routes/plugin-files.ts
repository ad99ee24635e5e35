import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { PluginHostError } from '@plughost/host-sdk/core';
import { pluginIdOf, validatePluginIdParam } from '../http/params.js';
import type { DataPaths } from '../config/data-paths.js';
import { parseByteRange } from '../services/plugin-data/byte-range.js';
import { contentTypeOf } from '../services/plugin-data/content-type.js';
import { isNotModified, rangeStillValid, validatorsOf } from '../services/plugin-data/file-validators.js';
import { openPluginFile } from '../services/plugin-data/open-plugin-file.js';
import { isBackendWrittenFile, parsePluginFilePath } from '../services/plugin-data/plugin-file-path.js';
import { requireInstalled } from '../services/plugin-data/plugin-data-file.js';
import type { DevPluginService } from '../services/dev-plugins/dev-plugin-service.js';

/**
 * Set on every answer of the file route, errors included, before anything can fail: a plugin's
 * HTML or SVG opened directly in a tab must never run with the backend's origin (which would let it
 * read the API token's pages and call the API), and nothing may be sniffed into a script.
 */
const inertFileHeaders: Middleware = async function inertFileHeaders(ctx, next) {
  ctx.set('Content-Security-Policy', 'sandbox allow-scripts');
  ctx.set('X-Content-Type-Options', 'nosniff');
  await next();
};

// The leftmost `/plugins/<id>/files/` of the raw path: the segment the router matched as `:id`.
const RAW_FILE_PATH = /^.*?\/plugins\/([^/]+)\/files\/(.*)$/s;

/** The raw (still percent-encoded) file path of the request, after `/plugins/<id>/files/`. */
function rawFilePathOf(ctx: Context, id: string): string {
  const match = RAW_FILE_PATH.exec(ctx.path);
  // The router decodes `:id`; the raw segment must be the id itself, not an encoding of it.
  if (!match || match[1] !== id) throw new PluginHostError('INVALID_ARGUMENT', 'The plugin id in a file path must not be percent-encoded');
  return match[2] ?? '';
}

function fileNotFound(id: string, path: string): PluginHostError {
  return new PluginHostError('NOT_FOUND', `Plugin ${id} has no file ${path}`);
}

/** What {@link createPluginFilesRouter} needs. */
export interface PluginFilesRouterServices {
  readonly paths: DataPaths;
  /** Dev plugins (development mode): their files come from their dev servers. Default none. */
  readonly devPlugins?: Pick<DevPluginService, 'has' | 'file'>;
}

/**
 * A dev plugin's file, fetched whole from its dev server (the same path, checked by the same rules
 * as an installed file). Never cached: the next build may change it any moment.
 */
async function serveDevFile(ctx: Context, devPlugins: Pick<DevPluginService, 'file'>, id: string, path: string): Promise<void> {
  const file = await devPlugins.file(id, path);
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Content-Type', file.contentType);
  ctx.set('Content-Length', String(file.body.length));
  ctx.body = file.body;
}

/**
 * `GET|HEAD /plugins/:id/files/*path`: serves a file of an installed plugin's folder, without a
 * token (plugin frames load it; decisions section 2), with content types, strong ETags,
 * conditional requests and single byte ranges, streamed from disk.
 *
 * Refusals: a path that is malformed or could escape the folder (`..`, `.` or empty segments,
 * backslashes, NUL, percent-encoded `.`, `/` or `\`, bad percent-encoding) is 400
 * `INVALID_ARGUMENT`; a plugin that is not installed is 404 `PLUGIN_NOT_FOUND`; a missing file, a
 * folder, a symbolic link, a real path outside the folder, or a file the backend writes
 * (`settings.json`, `cache.json`) is 404 `NOT_FOUND`, all with the same message.
 *
 * A dev plugin's files (development mode) come from its dev server after the same path checks:
 * whole, with `Cache-Control: no-store` and no ranges or validators; its `manifest.json` only once
 * validated; a dev server that cannot be reached is 502 `PLUGIN_LOAD_FAILED`, a slow one 504
 * `PLUGIN_TIMEOUT`.
 */
export function createPluginFilesRouter({ paths, devPlugins }: PluginFilesRouterServices): Router {
  const router = new Router({ strict: true, sensitive: true });
  router.use(inertFileHeaders);
  router.param('id', validatePluginIdParam);
  router.get('/plugins/:id/files/*path', async function servePluginFile(ctx) {
    const id = pluginIdOf(ctx.params);
    const path = parsePluginFilePath(rawFilePathOf(ctx, id));
    if (devPlugins?.has(id) === true) {
      if (isBackendWrittenFile(path)) throw fileNotFound(id, path);
      await serveDevFile(ctx, devPlugins, id, path);
      return;
    }
    await requireInstalled(paths, id);
    if (isBackendWrittenFile(path)) throw fileNotFound(id, path);
    const file = await openPluginFile(paths.pluginFolder(id), path);
    if (!file) throw fileNotFound(id, path);

    let streaming = false;
    try {
      const { size } = file.stats;
      const validators = validatorsOf(file.stats);
      ctx.set('ETag', validators.etag);
      ctx.set('Last-Modified', validators.lastModified.toUTCString());
      // Revalidate every time: file URLs carry no version, and an update replaces the files.
      ctx.set('Cache-Control', 'no-cache');
      ctx.set('Accept-Ranges', 'bytes');
      if (isNotModified({ ifNoneMatch: ctx.get('If-None-Match'), ifModifiedSince: ctx.get('If-Modified-Since') }, validators)) {
        ctx.status = 304;
        return;
      }
      const range = rangeStillValid(ctx.get('If-Range'), validators) ? parseByteRange(ctx.get('Range'), size) : { kind: 'full' as const };
      if (range.kind === 'unsatisfiable') {
        // 416 has no error code of its own; the body keeps the usual error shape.
        ctx.status = 416;
        ctx.set('Content-Range', `bytes */${size}`);
        ctx.body = { error: { code: 'INVALID_ARGUMENT', message: `The requested range is not satisfiable (the file has ${size} bytes)` } };
        return;
      }
      const start = range.kind === 'partial' ? range.start : 0;
      const end = range.kind === 'partial' ? range.end : size - 1;
      ctx.status = range.kind === 'partial' ? 206 : 200;
      if (range.kind === 'partial') ctx.set('Content-Range', `bytes ${start}-${end}/${size}`);
      ctx.set('Content-Type', contentTypeOf(path));
      if (ctx.method === 'HEAD' || size === 0) {
        ctx.set('Content-Length', String(end - start + 1));
        if (size === 0) ctx.body = Buffer.alloc(0);
        return;
      }
      // Streamed from the handle that was checked, never read whole into memory; the stream closes it.
      ctx.body = file.handle.createReadStream({ start, end });
      streaming = true;
      ctx.set('Content-Length', String(end - start + 1));
    } finally {
      if (!streaming) await file.handle.close();
    }
  });
  return router;
}
