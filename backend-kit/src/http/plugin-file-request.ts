/**
 * `/api/plugins/<id>/files/...`: the one route any origin may read without a token (decisions
 * section 2). The token check, CORS and the file route's inert headers all ask this one test.
 */
const PLUGIN_FILES_PATH = /^\/api\/plugins\/[^/]+\/files\//;

/** True when `path` (the request path, `/api` included) is below a plugin's files route. */
export function isPluginFilesPath(path: string): boolean {
  return PLUGIN_FILES_PATH.test(path);
}
