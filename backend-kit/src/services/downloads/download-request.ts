import { DOWNLOAD_CATEGORIES, PACKAGE_PATH_PROBLEM_TEXT, PluginHostError, findPackagePathProblem, type DownloadCategory } from '@plughost/host-sdk/core';
import { outgoingHeaders } from '../network/outgoing-headers.js';

/** Where a download goes: a path, or a category folder of an instance. */
export type DownloadDestination =
  | { readonly kind: 'path'; readonly targetPath: string }
  | { readonly kind: 'instance'; readonly instanceId: string; readonly category: DownloadCategory; readonly fileName: string };

/** A validated `download.addTask` input. */
export interface AddTaskRequest {
  readonly url: string;
  readonly destination: DownloadDestination;
  readonly extract: boolean;
  readonly headers: Readonly<Record<string, string>>;
  /** Display name; absent means the file name. */
  readonly name?: string;
}

const FIELDS = new Set(['url', 'targetPath', 'instanceId', 'category', 'fileName', 'extract', 'headers', 'name']);
const MAXIMUM_URL_LENGTH = 8192;
const MAXIMUM_NAME_LENGTH = 200;
const MAXIMUM_HEADERS = 32;

function invalid(message: string, field: string): PluginHostError {
  return new PluginHostError('INVALID_ARGUMENT', message, { field });
}

function optionalString(body: Record<string, unknown>, field: string): string | undefined {
  const value = body[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') throw invalid(`"${field}" must be a non-empty string`, field);
  return value;
}

function parseUrl(value: unknown): string {
  if (typeof value !== 'string' || value === '') throw invalid('"url" must be a non-empty string', 'url');
  if (value.length > MAXIMUM_URL_LENGTH) throw invalid('"url" is too long', 'url');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid(`"url" is not a valid URL`, 'url');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid('"url" must be an http or https URL', 'url');
  return url.href;
}

function parseHeaders(value: unknown): Record<string, string> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid('"headers" must be an object of strings', 'headers');
  const entries = Object.entries(value);
  if (entries.length > MAXIMUM_HEADERS) throw invalid(`"headers" may have at most ${MAXIMUM_HEADERS} entries`, 'headers');
  const headers = Object.create(null) as Record<string, string>;
  for (const [name, headerValue] of entries) {
    if (typeof headerValue !== 'string') throw invalid(`Header "${name}" must be a string`, 'headers');
    headers[name] = headerValue;
  }
  // The same validation the proxy applies: CR, LF and NUL refused, Host and framing dropped.
  return outgoingHeaders(headers);
}

/** Checks that `fileName` is one safe file name (no folders, no `..`, nothing a file system would change). */
export function requireFileName(value: unknown, field = 'fileName'): string {
  if (typeof value !== 'string' || value === '') throw invalid(`"${field}" must be a non-empty string`, field);
  if (value.includes('/') || value.includes('\\')) throw invalid(`"${field}" must be a file name without folders`, field);
  const problem = findPackagePathProblem(value);
  if (problem !== null)
    throw new PluginHostError('UNSAFE_ENTRY_PATH', `"${field}" ${JSON.stringify(value)} is not a safe file name: ${PACKAGE_PATH_PROBLEM_TEXT[problem]}`, {
      field,
    });
  if (value.startsWith('.')) throw invalid(`"${field}" must not start with a dot`, field);
  return value;
}

/**
 * Validates a `download.addTask` body: either `{url, targetPath}` or `{url, instanceId,
 * category, fileName}`, with optional `extract`, `headers` and `name`. Unknown fields are
 * refused, so a typo cannot silently download somewhere else.
 *
 * @throws PluginHostError `INVALID_ARGUMENT` (details `field`) or `UNSAFE_ENTRY_PATH`.
 */
export function parseAddTaskRequest(body: Record<string, unknown>): AddTaskRequest {
  for (const field of Object.keys(body)) if (!FIELDS.has(field)) throw invalid(`Unknown field "${field}"`, field);
  const url = parseUrl(body.url);
  const targetPath = optionalString(body, 'targetPath');
  const instanceId = optionalString(body, 'instanceId');
  let destination: DownloadDestination;
  if (targetPath !== undefined) {
    if (instanceId !== undefined || body.category !== undefined || body.fileName !== undefined) {
      throw invalid('Give either "targetPath" or "instanceId", "category" and "fileName", not both', 'targetPath');
    }
    destination = { kind: 'path', targetPath };
  } else if (instanceId !== undefined) {
    const category = body.category;
    if (typeof category !== 'string' || !(DOWNLOAD_CATEGORIES as readonly string[]).includes(category)) {
      throw invalid(`"category" must be one of ${DOWNLOAD_CATEGORIES.join(', ')}`, 'category');
    }
    destination = { kind: 'instance', instanceId, category: category as DownloadCategory, fileName: requireFileName(body.fileName) };
  } else {
    throw invalid('Give "targetPath", or "instanceId", "category" and "fileName"', 'targetPath');
  }
  const extract = body.extract;
  if (extract !== undefined && typeof extract !== 'boolean') throw invalid('"extract" must be a boolean', 'extract');
  const name = optionalString(body, 'name');
  if (name !== undefined && name.length > MAXIMUM_NAME_LENGTH) throw invalid(`"name" may have at most ${MAXIMUM_NAME_LENGTH} characters`, 'name');
  return { url, destination, extract: extract === true, headers: parseHeaders(body.headers), ...(name !== undefined ? { name } : {}) };
}
