import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';

/** The cache validators of one served file. */
export interface FileValidators {
  /** Strong entity tag, quoted (`"..."`). */
  readonly etag: string;
  /** Modification time, whole seconds (HTTP dates have no finer resolution). */
  readonly lastModified: Date;
}

/** Request headers that make a request conditional. */
export interface ConditionalHeaders {
  readonly ifNoneMatch?: string | undefined;
  readonly ifModifiedSince?: string | undefined;
  readonly ifRange?: string | undefined;
}

/**
 * Validators of a file from its identity and stamp (device, inode, size, modification time).
 * Installs write new files, so any change of content changes at least one of them; the hash keeps
 * the inode number and timestamps out of the response.
 */
export function validatorsOf(stats: Stats): FileValidators {
  const stamp = `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}`;
  const etag = `"${createHash('sha256').update(stamp).digest('base64url').slice(0, 27)}"`;
  return { etag, lastModified: new Date(Math.floor(stats.mtimeMs / 1000) * 1000) };
}

function opaqueTag(tag: string): string {
  return tag.startsWith('W/') ? tag.slice(2) : tag;
}

/**
 * True when a GET or HEAD can be answered 304 Not Modified. `If-None-Match` (weak comparison)
 * wins over `If-Modified-Since`, which is only looked at when `If-None-Match` is absent.
 */
export function isNotModified(headers: ConditionalHeaders, validators: FileValidators): boolean {
  const { ifNoneMatch, ifModifiedSince } = headers;
  if (ifNoneMatch !== undefined && ifNoneMatch !== '') {
    const tags = ifNoneMatch.split(',').map((tag) => tag.trim());
    return tags.some((tag) => tag === '*' || opaqueTag(tag) === validators.etag);
  }
  if (ifModifiedSince === undefined || ifModifiedSince === '') return false;
  const since = Date.parse(ifModifiedSince);
  return !Number.isNaN(since) && validators.lastModified.getTime() <= since;
}

/**
 * True when a `Range` header may be honoured: no `If-Range`, or an `If-Range` that names the
 * current representation (the strong ETag exactly, or the exact `Last-Modified` date). Otherwise
 * the client's partial copy is stale and it gets the whole file.
 */
export function rangeStillValid(ifRange: string | undefined, validators: FileValidators): boolean {
  if (ifRange === undefined || ifRange === '') return true;
  const value = ifRange.trim();
  if (value.startsWith('"') || value.startsWith('W/')) return value === validators.etag;
  const date = Date.parse(value);
  return !Number.isNaN(date) && date === validators.lastModified.getTime();
}
