import type { CentralRecord } from './central-directory.js';
import { unsafeEntry } from './package-errors.js';
import { UNIX_FILE_TYPE } from './zip-format.js';

/** What an entry becomes on disk. Nothing else (links, devices, pipes) is ever created. */
export type EntryKind = 'file' | 'folder';

function describeUnixType(type: number): string {
  switch (type) {
    case UNIX_FILE_TYPE.symbolicLink:
      return 'is a symbolic link';
    case UNIX_FILE_TYPE.directory:
      return 'is marked as a folder but its name does not end with `/`';
    case UNIX_FILE_TYPE.regular:
      return 'is marked as a regular file but its name ends with `/`';
    default:
      return `is a special file (Unix type 0${type.toString(8)}), not a regular file or folder`;
  }
}

/**
 * Decides whether an entry is a file or a folder: a trailing `/` makes a folder (the zip
 * convention every reader follows), and the Unix file type in the upper 16 bits of the external
 * attributes must agree.
 *
 * The Unix mode is honoured whatever host the entry claims to come from: a symbolic link is
 * refused even when disguised as coming from another system, since some extractors still
 * restore it. A type of 0 (Windows and most non-Unix writers) means "unspecified".
 *
 * @throws PluginHostError `UNSAFE_ENTRY_PATH` for links, devices, pipes, sockets and a type that
 *   contradicts the name.
 */
export function classifyEntry(record: CentralRecord, path: string): EntryKind {
  const kind: EntryKind = path.endsWith('/') ? 'folder' : 'file';
  const unixType = (record.externalAttributes >>> 16) & UNIX_FILE_TYPE.mask;
  if (unixType === 0) return kind;
  const expected = kind === 'folder' ? UNIX_FILE_TYPE.directory : UNIX_FILE_TYPE.regular;
  if (unixType !== expected) throw unsafeEntry(path, describeUnixType(unixType));
  return kind;
}
