import { lstat, statfs } from 'node:fs/promises';
import { dirname } from 'node:path';
import { PluginHostError } from '@plughost/host-sdk/core';

/**
 * Folders through which a process reads its own memory and environment (`/proc/self/environ`
 * holds the API token), the kernel's settings, and devices. No consent covers them (decisions
 * section 2), not even consent to `/`.
 */
const POSIX_SYSTEM_FOLDERS = ['/proc', '/sys', '/dev'] as const;

/**
 * Linux pseudo file systems by their `statfs` magic number: the same places mounted somewhere
 * else (a bind mount of `/proc`, a container's extra `sysfs`) are just as forbidden.
 */
const PSEUDO_FILE_SYSTEMS: ReadonlyMap<number, string> = new Map([
  [0x9fa0, 'procfs'],
  [0x62656572, 'sysfs'],
  [0x1cd1, 'devpts'],
  [0x64626720, 'debugfs'],
  [0x74726163, 'tracefs'],
  [0x73636673, 'securityfs'],
  [0x27e0eb, 'cgroup'],
  [0x63677270, 'cgroup2'],
  [0xcafe4a11, 'bpf'],
  [0xde5e81e4, 'efivarfs'],
]);

/**
 * Names Windows maps to a device in any folder (`C:\games\CON.txt` is the console), with an
 * optional extension and the trailing dots and spaces Windows ignores.
 */
const WINDOWS_DEVICE_NAME = /^(?:CON|PRN|AUX|NUL|COM[0-9¹²³]|LPT[0-9¹²³]|CONIN\$|CONOUT\$|CLOCK\$)(?:\.[^\\]*)?[. ]*$/i;

/**
 * The system place `path` (absolute, resolved) lies in, as words for a message, or `null`.
 * POSIX: `/proc`, `/sys`, `/dev` and everything below. Windows: the device namespaces
 * (`\\.\`, `\\?\`, `\??\`, either slash) and reserved device names (`NUL`, `COM1`, ...).
 * Pure, so every platform's rule is testable anywhere.
 */
export function systemPlaceOf(path: string, platform: NodeJS.Platform = process.platform): string | null {
  if (platform === 'win32') {
    const backslashed = path.replace(/\//g, '\\');
    if (/^\\\\[.?]\\/.test(backslashed) || backslashed.startsWith('\\??\\')) return 'a Windows device path';
    const device = backslashed.split('\\').find((segment) => WINDOWS_DEVICE_NAME.test(segment));
    return device === undefined ? null : `the Windows device name ${device}`;
  }
  const folder = POSIX_SYSTEM_FOLDERS.find((candidate) => path === candidate || path.startsWith(`${candidate}/`));
  return folder ?? null;
}

/**
 * The pseudo file system holding `path` on Linux, or `null`. A path that does not exist yet is
 * judged by its nearest existing folder; a symbolic link (kept as the last name of a delete) by
 * the folder it sits in, since the link itself is what the operation touches.
 */
export async function pseudoFileSystemAt(path: string, platform: NodeJS.Platform = process.platform): Promise<string | null> {
  if (platform !== 'linux') return null;
  const entry = await lstat(path).catch(() => null);
  let current = entry?.isSymbolicLink() ? dirname(path) : path;
  for (;;) {
    try {
      return PSEUDO_FILE_SYSTEMS.get((await statfs(current)).type) ?? null;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') return null;
    }
    const parent = dirname(current);
    if (parent === current) return null;
    current = parent;
  }
}

/**
 * Throws 403 `FS_PATH_FORBIDDEN` when `path` (absolute and already resolved through links, see
 * `resolveRealPath`) is a system place or on a pseudo file system. Applies to everyone, the
 * launcher's own downloads included: nothing the backend writes or reads for a caller belongs there.
 */
export async function refuseSystemPlace(path: string): Promise<void> {
  const place = systemPlaceOf(path) ?? (await pseudoFileSystemAt(path));
  if (place !== null) {
    throw new PluginHostError('FS_PATH_FORBIDDEN', `${path} lies in ${place}, which no file API reaches, whatever the user agreed to`, { path });
  }
}

/** 403 `FS_PATH_FORBIDDEN` for a path inside the launcher's data directory (`what` names the part). */
export function launcherDataForbidden(path: string, what = "the launcher's data directory"): PluginHostError {
  return new PluginHostError(
    'FS_PATH_FORBIDDEN',
    `${path} lies in ${what} (plugins' private data, the backend's records and keys), which no plugin file API reaches, whatever the user agreed to`,
    { path },
  );
}
