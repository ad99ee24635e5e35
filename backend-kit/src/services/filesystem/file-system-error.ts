import { PluginHostError } from '@plughost/host-sdk/core';

/**
 * The API error for a failed file operation: a missing file (or a missing folder on its way)
 * is 404 `FS_FILE_NOT_FOUND`; a folder where a file was expected, a link swapped in after the
 * check, or a system refusal is 400 `INVALID_ARGUMENT`. Anything else is rethrown (500, logged).
 */
export function fileSystemError(error: unknown, path: string): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return new PluginHostError('FS_FILE_NOT_FOUND', `No such file: ${path}`);
    case 'EISDIR':
      return new PluginHostError('INVALID_ARGUMENT', `${path} is a folder, not a file`);
    case 'ELOOP':
      return new PluginHostError('INVALID_ARGUMENT', `${path} became a symbolic link while it was being opened`);
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
    case 'EBUSY':
    case 'ENAMETOOLONG':
    case 'EEXIST':
      return new PluginHostError('INVALID_ARGUMENT', `The system refused the operation on ${path} (${code})`);
    default:
      return error;
  }
}
