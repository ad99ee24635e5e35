import { PluginHostError, parseManifest, formatManifestProblems, type PluginManifest } from '@plughost/host-sdk/core';
import { DEFAULT_PACKAGE_LIMITS } from '../../package/limits.js';
import { allowedContentType, contentTypeOf } from '../plugin-data/content-type.js';
import { fetchLoopback, LoopbackFetchError, type LoopbackResponse } from './loopback-request.js';

/** The largest file the launcher takes from a dev server (it is held in memory while served). */
export const DEV_FILE_LIMIT_BYTES = 64 * 1024 * 1024;
/** The largest dev manifest: the package reader's limit for `manifest.json`. */
export const DEV_MANIFEST_LIMIT_BYTES = DEFAULT_PACKAGE_LIMITS.maxMetadataFileBytes;
/** Time for one file of a dev server (a local process: only a stuck one takes long). */
export const DEV_FILE_TIMEOUT_MS = 10_000;
/** Time for a dev manifest, read while listing plugins. */
export const DEV_MANIFEST_TIMEOUT_MS = 5000;

/**
 * The URL of a plugin file on its dev server: `baseUrl` followed by `path` (a package path that
 * passed the file route's checks), each segment percent-encoded, so the URL names exactly that
 * path under the base and nothing else.
 *
 * @throws PluginHostError `INVALID_ARGUMENT` if the result would leave the base (it cannot for a checked path; checked anyway).
 */
export function devFileUrl(baseUrl: string, path: string): URL {
  const url = new URL(path.split('/').map(encodeURIComponent).join('/'), baseUrl);
  if (!url.href.startsWith(baseUrl) || url.search !== '' || url.hash !== '') {
    throw new PluginHostError('INVALID_ARGUMENT', `The plugin file path ${path} does not stay under the dev server's base URL`);
  }
  return url;
}

/** A file of a dev plugin, ready to serve. */
export interface DevFile {
  readonly body: Buffer;
  readonly contentType: string;
}

function loadFailure(id: string, baseUrl: string, what: string, error: LoopbackFetchError): PluginHostError {
  const code = error.kind === 'timeout' ? 'PLUGIN_TIMEOUT' : 'PLUGIN_LOAD_FAILED';
  const next = error.kind === 'too-large' ? 'the launcher takes no larger file from a dev server' : 'check that `pluginctl dev` is still running';
  return new PluginHostError(code, `${what} of dev plugin ${id} could not be read from its dev server at ${baseUrl}: ${error.message}; ${next}`, {
    pluginId: id,
  });
}

async function fetchFrom(
  id: string,
  baseUrl: string,
  path: string,
  accept: string,
  limits: { timeoutMs: number; maxBytes: number },
): Promise<LoopbackResponse> {
  const url = devFileUrl(baseUrl, path);
  let response: LoopbackResponse;
  try {
    response = await fetchLoopback(url, { accept, ...limits });
  } catch (error) {
    if (!(error instanceof LoopbackFetchError)) throw error;
    throw loadFailure(id, baseUrl, path, error);
  }
  if (response.status === 404) throw new PluginHostError('NOT_FOUND', `Plugin ${id} has no file ${path} (its dev server at ${baseUrl} answered 404)`);
  if (response.status !== 200) {
    throw new PluginHostError(
      'PLUGIN_LOAD_FAILED',
      `The dev server of ${id} at ${baseUrl} answered ${response.status} for ${path}; see the output of \`pluginctl dev\``,
      {
        pluginId: id,
        status: response.status,
      },
    );
  }
  return response;
}

/**
 * One file of a dev plugin from its dev server: `path` must already have passed the file route's
 * path rules. The content type is the server's when its media type is on the file route's list,
 * else the one of the file's extension.
 *
 * @throws PluginHostError `NOT_FOUND` (the server answered 404), `PLUGIN_LOAD_FAILED` (not
 *   reachable, another status, larger than {@link DEV_FILE_LIMIT_BYTES}), `PLUGIN_TIMEOUT`.
 */
export async function fetchDevFile(id: string, baseUrl: string, path: string): Promise<DevFile> {
  const response = await fetchFrom(id, baseUrl, path, '*/*', { timeoutMs: DEV_FILE_TIMEOUT_MS, maxBytes: DEV_FILE_LIMIT_BYTES });
  return { body: response.body, contentType: allowedContentType(response.contentType) ?? contentTypeOf(path) };
}

/** A dev plugin's manifest, validated, with the bytes it was read from. */
export interface DevManifest {
  readonly manifest: PluginManifest;
  readonly bytes: Buffer;
}

/**
 * Reads and validates `<baseUrl>manifest.json` (the full manifest rules of an install, except that
 * no signature is needed) and checks that it names plugin `id`.
 *
 * @throws PluginHostError `INVALID_MANIFEST` naming the problems, or as {@link fetchDevFile}.
 */
export async function fetchDevManifest(id: string, baseUrl: string): Promise<DevManifest> {
  const response = await fetchFrom(id, baseUrl, 'manifest.json', 'application/json', {
    timeoutMs: DEV_MANIFEST_TIMEOUT_MS,
    maxBytes: DEV_MANIFEST_LIMIT_BYTES,
  });
  const result = parseManifest(response.body);
  if (!result.ok) {
    throw new PluginHostError(
      'INVALID_MANIFEST',
      `The manifest of dev plugin ${id} (${baseUrl}manifest.json) is invalid: ${formatManifestProblems(result.problems)}`,
      {
        pluginId: id,
      },
    );
  }
  if (result.manifest.id !== id) {
    throw new PluginHostError(
      'INVALID_MANIFEST',
      `The dev server at ${baseUrl} serves plugin ${result.manifest.id}, but .dev-plugins.json lists it as ${id}; run \`pluginctl dev\` again so it rewrites its entry`,
      { pluginId: id },
    );
  }
  return { manifest: result.manifest, bytes: response.body };
}
