import { headerRef } from '../components/parameters.js';
import { jsonResponse } from '../components/responses.js';
import type { ParameterObject, ResponseObject } from '../openapi-types.js';
import type { RouteDescription } from '../route-description.js';

const REQUEST_HEADERS: readonly ParameterObject[] = [
  {
    name: 'Range',
    in: 'header',
    description: 'One byte range, e.g. `bytes=0-1023` or `bytes=-500` (the last 500 bytes); answered with 206.',
    schema: { type: 'string' },
  },
  {
    name: 'If-Range',
    in: 'header',
    description: 'Honour `Range` only while the file still has this ETag or date; otherwise the whole file.',
    schema: { type: 'string' },
  },
  { name: 'If-None-Match', in: 'header', description: 'ETags from earlier answers; a match gives 304.', schema: { type: 'string' } },
  {
    name: 'If-Modified-Since',
    in: 'header',
    description: 'An HTTP date; an unchanged file gives 304 (ignored when `If-None-Match` is sent).',
    schema: { type: 'string' },
  },
];

// Every answer of this route, errors included, carries the two headers that keep files inert.
const inertHeaders = {
  'Content-Security-Policy': headerRef('ContentSecurityPolicy'),
  'X-Content-Type-Options': headerRef('XContentTypeOptions'),
};

const fileHeaders = {
  ...inertHeaders,
  ETag: headerRef('ETag'),
  'Last-Modified': headerRef('LastModified'),
  'Cache-Control': headerRef('CacheControl'),
  'Accept-Ranges': headerRef('AcceptRanges'),
};

function fileResponses(withBody: boolean): Record<string, ResponseObject> {
  const body = (description: string) => (withBody ? { content: { '*/*': { schema: { description } } } } : {});
  return {
    200: { description: 'The whole file, with the content type of its extension.', headers: fileHeaders, ...body("The file's bytes.") },
    206: { description: 'The requested range.', headers: { ...fileHeaders, 'Content-Range': headerRef('ContentRange') }, ...body('The bytes of the range.') },
    304: { description: 'Not modified.', headers: fileHeaders },
    416: jsonResponse('The range lies outside the file (`error.code` is `INVALID_ARGUMENT`).', 'ErrorBody', {
      headers: { ...inertHeaders, 'Content-Range': headerRef('ContentRange') },
    }),
  };
}

const common = {
  path: '/api/plugins/{id}/files/{path}',
  tag: 'plugin-files',
  // Sandboxed frames load these with no token and the origin `null` (decisions section 2).
  token: false,
  parameters: REQUEST_HEADERS,
  // INVALID_ARGUMENT: a path that could leave the folder or is badly encoded; NOT_FOUND: no such
  // file, a folder, a link, or a file the backend writes (same message for all).
  errors: ['INVALID_ARGUMENT', 'NOT_FOUND', 'PLUGIN_NOT_FOUND', 'PLUGIN_LOAD_FAILED', 'PLUGIN_TIMEOUT', 'INVALID_MANIFEST'],
} as const;

const DEV_FILES =
  " A dev plugin's files (development mode) are fetched from its dev server after the same path checks: whole (no ranges or validators), with `Cache-Control: no-store`, the dev server's content type only when it is one this route serves, at most 64 MiB, and `manifest.json` only once validated; a dev server that cannot be reached is 502 `PLUGIN_LOAD_FAILED`, one that does not answer in time 504 `PLUGIN_TIMEOUT`.";

/** `routes/plugin-files.ts`: files of installed packages, for frames (no token, any origin). */
export const pluginFileRoutes: readonly RouteDescription[] = [
  {
    ...common,
    method: 'get',
    operationId: 'getPluginFile',
    summary: 'Read a file of an installed plugin',
    description:
      "Serves only files that came from the package (never `settings.json`, `cache.json` or the backend's records), streamed, with strong ETags, conditional requests and single byte ranges. Needs no token; answers `Access-Control-Allow-Origin: *`. Every answer carries `Content-Security-Policy: sandbox allow-scripts` and `X-Content-Type-Options: nosniff`." +
      DEV_FILES,
    responses: fileResponses(true),
  },
  {
    ...common,
    method: 'head',
    operationId: 'headPluginFile',
    summary: 'Headers of a file of an installed plugin',
    description: 'As GET, without the body.',
    responses: fileResponses(false),
  },
];
