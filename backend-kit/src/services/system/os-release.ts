import { readFile } from 'node:fs/promises';

/** The fields of an os-release file (`NAME`, `VERSION`, `VERSION_ID`, `PRETTY_NAME`, ...). */
export type OsReleaseFields = Readonly<Record<string, string>>;

// os-release(5): the file the distribution ships, then the vendor copy it is usually a link to.
const OS_RELEASE_FILES = ['/etc/os-release', '/usr/lib/os-release'];

function unquote(raw: string): string {
  const value = raw.trim();
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
    // Inside double quotes the format allows shell escapes of `"`, `\`, `$` and backtick.
    return value.slice(1, -1).replace(/\\([\\"$`])/g, '$1');
  }
  if (value.length >= 2 && value.startsWith("'") && value.endsWith("'")) return value.slice(1, -1);
  return value;
}

/**
 * Parses the text of an os-release file: `KEY=value` lines, values optionally quoted, `#`
 * comments and blank lines ignored. Nothing is executed: the file is shell-like, not a script.
 */
export function parseOsRelease(text: string): OsReleaseFields {
  const fields: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (match?.[1] !== undefined && match[2] !== undefined) fields[match[1]] = unquote(match[2]);
  }
  return fields;
}

/** The machine's os-release fields, or an empty object when the system has no such file. */
export async function readOsRelease(files: readonly string[] = OS_RELEASE_FILES): Promise<OsReleaseFields> {
  for (const file of files) {
    try {
      return parseOsRelease(await readFile(file, 'utf8'));
    } catch {
      // Missing or unreadable: try the next location; a system without any still gets a description.
    }
  }
  return {};
}
