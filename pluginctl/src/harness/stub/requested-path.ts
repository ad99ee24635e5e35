import { isAbsolute, resolve } from 'node:path';
import { PluginHostError } from '@plughost/host-sdk/core';

/** Longest accepted path, in UTF-16 units (the backend's limit). */
const MAXIMUM_PATH_LENGTH = 4096;

/**
 * A path field (`path`, `targetPath`, `gameDir`) made absolute and normalized (the backend also resolves links, which the stub,
 * reading no disk, cannot). Refused like the backend refuses it: not a non-empty string, NUL, too
 * long, or relative.
 */
export function requestedPath(value: unknown, field = 'path'): string {
  if (typeof value !== 'string' || value === '') throw new PluginHostError('INVALID_ARGUMENT', `"${field}" must be a non-empty string`, { field });
  if (value.includes('\0')) throw new PluginHostError('INVALID_ARGUMENT', `"${field}" must not contain NUL characters`, { field });
  if (value.length > MAXIMUM_PATH_LENGTH) throw new PluginHostError('INVALID_ARGUMENT', `"${field}" is too long`, { field, limit: MAXIMUM_PATH_LENGTH });
  if (!isAbsolute(value)) throw new PluginHostError('INVALID_ARGUMENT', `"${field}" must be an absolute path`, { field });
  return resolve(value);
}
