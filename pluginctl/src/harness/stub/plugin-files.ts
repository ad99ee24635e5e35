/**
 * `GET|HEAD /api/plugins/<id>/files/<path>` from `plugins-dev/<id>/`, with the backend's rules
 * (backend-kit `routes/plugin-files.ts`, whose checks are called here): the path is decoded once
 * and must be a safe package path (no `..`, `.` or empty segment, no backslash, no percent-encoded
 * `.`, `/` or `\`), a symbolic link anywhere inside the plugin folder is not followed, nothing
 * outside the folder is served, nor `settings.json` or `cache.json`. Unlike the backend it sends
 * `Cache-Control: no-store`, so a rebuilt file is fetched again, and no ranges or ETags.
 */
import type { ServerResponse } from 'node:http';
import { contentTypeOf, isBackendWrittenFile, openPluginFile, parsePluginFilePath } from '@plughost/backend-kit';
import { PluginHostError } from '@plughost/host-sdk/core';
import type { PluginCatalog } from './plugin-catalog.js';
import type { StubRequest } from './stub-router.js';

function fileNotFound(id: string, path: string): PluginHostError {
  return new PluginHostError('NOT_FOUND', `Plugin ${id} has no file ${path}`);
}

/** Set before anything can fail: no plugin file may run with the stub's origin, nor be sniffed into a script. */
function setInertHeaders(response: ServerResponse): void {
  response.setHeader('Content-Security-Policy', 'sandbox allow-scripts');
  response.setHeader('X-Content-Type-Options', 'nosniff');
}

/** Serves one file of a harness plugin (see the module comment). */
export async function servePluginFile(request: StubRequest, catalog: PluginCatalog): Promise<void> {
  const { response, params } = request;
  setInertHeaders(response);
  const id = params.id ?? '';
  // The router decoded `:id`; the raw segment must be the id itself, as the backend requires.
  if (request.rawPath.split('/')[3] !== id) throw new PluginHostError('INVALID_ARGUMENT', 'The plugin id in a file path must not be percent-encoded');
  const path = parsePluginFilePath(params.path ?? '');
  const plugin = await catalog.find(id);
  if (!plugin) throw new PluginHostError('PLUGIN_NOT_FOUND', `Plugin ${id} is not installed (no valid plugins-dev/${id}/manifest.json)`, { pluginId: id });
  if (isBackendWrittenFile(path)) throw fileNotFound(id, path);
  const file = await openPluginFile(plugin.folder, path);
  if (!file) throw fileNotFound(id, path);

  let streaming = false;
  try {
    response.writeHead(200, {
      'Content-Type': contentTypeOf(path),
      'Content-Length': String(file.stats.size),
      'Cache-Control': 'no-store',
    });
    if (request.method === 'HEAD' || file.stats.size === 0) {
      response.end();
      return;
    }
    // Streamed from the handle that was checked; the stream closes it.
    const stream = file.handle.createReadStream();
    streaming = true;
    stream.on('error', () => response.destroy());
    stream.pipe(response);
  } finally {
    if (!streaming) await file.handle.close();
  }
}
