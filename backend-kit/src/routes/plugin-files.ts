import type { Readable } from 'node:stream';
import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { PluginHostError } from '@plughost/host-sdk/core';
import { pluginIdOf, validatePluginIdParam } from '../http/params.js';
import { isPluginFilesPath } from '../http/plugin-file-request.js';
import type { DataPaths } from '../config/data-paths.js';
import { parseByteRange } from '../services/plugin-data/byte-range.js';
import { contentTypeOf } from '../services/plugin-data/content-type.js';
import { isNotModified, rangeStillValid, validatorsOf, type FileValidators } from '../services/plugin-data/file-validators.js';
import { openPluginFile } from '../services/plugin-data/open-plugin-file.js';
import { PluginFileCache } from '../services/plugin-data/plugin-file-cache.js';
import { isBackendWrittenFile, parsePluginFilePath } from '../services/plugin-data/plugin-file-path.js';
import { requireInstalled } from '../services/plugin-data/plugin-data-file.js';
import type { DevPluginService } from '../services/dev-plugins/dev-plugin-service.js';

/**
 * Set on every answer of the file route, errors included, before anything can fail (the plugin
 * id's check included): a plugin's HTML or SVG opened directly in a tab must never run with the
 * backend's origin (which would let it read the API token's pages and call the API), and nothing
 * may be sniffed into a script. Mounted router-wide, so it sees every `/api` request: others pass.
 */
const inertFileHeaders: Middleware = async function inertFileHeaders(ctx, next) {
  if (isPluginFilesPath(ctx.path)) {
    ctx.set('Content-Security-Policy', 'sandbox allow-scripts');
    ctx.set('X-Content-Type-Options', 'nosniff');
  }
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
  /** Small files kept in memory between requests; default a new cache with the default limits. */
  readonly fileCache?: PluginFileCache;
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
 * conditional requests and single byte ranges. Small files are answered from memory while they
 * are unchanged on disk ({@link PluginFileCache}: frames load the same pages and scripts at every
 * start), larger ones streamed from disk.
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
export function createPluginFilesRouter({ paths, devPlugins, fileCache = new PluginFileCache() }: PluginFilesRouterServices): Router {
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
    const folder = paths.pluginFolder(id);
    const hit = fileCache.fresh(folder, path);
    if (hit) {
      sendFile(ctx, path, hit.validators, hit.body.length, (start, end) => hit.body.subarray(start, end + 1));
      return;
    }
    const file = await openPluginFile(folder, path);
    if (!file) throw fileNotFound(id, path);
    let streaming = false;
    try {
      const kept = await fileCache.remember(folder, path, file);
      if (kept) {
        sendFile(ctx, path, kept.validators, kept.body.length, (start, end) => kept.body.subarray(start, end + 1));
        return;
      }
      // Streamed from the handle that was checked, never read whole into memory; the stream closes it.
      streaming = sendFile(ctx, path, validatorsOf(file.stats), file.stats.size, (start, end) => file.handle.createReadStream({ start, end }));
    } finally {
      if (!streaming) await file.handle.close();
    }
  });
  return router;
}

/**
 * Answers a file of `size` bytes with its validators: 304 for a matching conditional request, 416
 * for a range past the end, else 200 or 206 with `body(start, end)` (inclusive) unless the request
 * is HEAD. Returns whether `body` was called (and its stream handed to Koa).
 */
function sendFile(
  ctx: Context,
  path: string,
  validators: FileValidators,
  size: number,
  body: (start: number, end: number) => Buffer | Readable | undefined,
): boolean {
  ctx.set('ETag', validators.etag);
  ctx.set('Last-Modified', validators.lastModified.toUTCString());
  // Revalidate every time: file URLs carry no version, and an update replaces the files.
  ctx.set('Cache-Control', 'no-cache');
  ctx.set('Accept-Ranges', 'bytes');
  if (isNotModified({ ifNoneMatch: ctx.get('If-None-Match'), ifModifiedSince: ctx.get('If-Modified-Since') }, validators)) {
    ctx.status = 304;
    return false;
  }
  const range = rangeStillValid(ctx.get('If-Range'), validators) ? parseByteRange(ctx.get('Range'), size) : { kind: 'full' as const };
  if (range.kind === 'unsatisfiable') {
    // 416 has no error code of its own; the body keeps the usual error shape.
    ctx.status = 416;
    ctx.set('Content-Range', `bytes */${size}`);
    ctx.body = { error: { code: 'INVALID_ARGUMENT', message: `The requested range is not satisfiable (the file has ${size} bytes)` } };
    return false;
  }
  const start = range.kind === 'partial' ? range.start : 0;
  const end = range.kind === 'partial' ? range.end : size - 1;
  ctx.status = range.kind === 'partial' ? 206 : 200;
  if (range.kind === 'partial') ctx.set('Content-Range', `bytes ${start}-${end}/${size}`);
  ctx.set('Content-Type', contentTypeOf(path));
  if (ctx.method === 'HEAD' || size === 0) {
    ctx.set('Content-Length', String(end - start + 1));
    if (size === 0) ctx.body = Buffer.alloc(0);
    return false;
  }
  ctx.body = body(start, end);
  ctx.set('Content-Length', String(end - start + 1));
  return true;
}
