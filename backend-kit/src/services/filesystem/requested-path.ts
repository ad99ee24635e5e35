import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { PluginHostError } from '@plughost/host-sdk/core';
import { resolveRealPath } from './resolve-real-path.js';

/** Longest accepted path, in UTF-16 units. */
const MAXIMUM_PATH_LENGTH = 4096;

/**
 * The resolved real path of a `path` field (see {@link resolveRealPath}). It must be a
 * non-empty absolute path without NUL characters, else 400 `INVALID_ARGUMENT`: a relative path
 * would be resolved against the backend's working folder, which means nothing to a plugin.
 *
 * With `followFinalLink: false` only the parent folder is resolved and the last name is kept,
 * so a delete removes a symbolic link itself, never the file it points to.
 */
export async function requestedPath(value: unknown, options: { field?: string; followFinalLink?: boolean } = {}): Promise<string> {
  const field = options.field ?? 'path';
  if (typeof value !== 'string' || value === '') throw new PluginHostError('INVALID_ARGUMENT', `"${field}" must be a non-empty string`, { field });
  if (value.includes('\0')) throw new PluginHostError('INVALID_ARGUMENT', `"${field}" must not contain NUL characters`, { field });
  if (value.length > MAXIMUM_PATH_LENGTH) throw new PluginHostError('INVALID_ARGUMENT', `"${field}" is too long`, { field, limit: MAXIMUM_PATH_LENGTH });
  // `C:foo` and `\foo` are not absolute on Windows in the sense that matters: both depend on
  // the process's current drive or folder.
  if (!isAbsolute(value) || (process.platform === 'win32' && !/^([a-zA-Z]:[\\/]|\\\\)/.test(value))) {
    throw new PluginHostError('INVALID_ARGUMENT', `"${field}" must be an absolute path`, { field });
  }
  try {
    if (options.followFinalLink === false) {
      const absolute = resolve(value);
      const name = basename(absolute);
      return name === '' ? absolute : join(await resolveRealPath(dirname(absolute)), name);
    }
    return await resolveRealPath(value);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'EACCES' || code === 'EPERM' || code === 'ENAMETOOLONG') {
      throw new PluginHostError('INVALID_ARGUMENT', `"${field}" cannot be resolved (${code})`, { field });
    }
    throw error;
  }
}
