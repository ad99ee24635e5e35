import type { CoreDependency, LauncherDeveloper, LauncherIdentity } from '../../config/launcher-identity.js';
import { readMemory, type MemoryInfo } from './memory.js';
import { readOperatingSystem, type OperatingSystemInfo } from './operating-system.js';
import { versionTypeOf, type VersionType } from './version-type.js';

/** The launcher part of system information, from the `launcher` option. */
export interface LauncherInfo {
  readonly LauncherName: string;
  readonly LauncherVersion: string;
  readonly VersionType: VersionType;
  /** The commit the launcher was built from; absent when the vendor did not say (never an empty placeholder). */
  readonly GitCommit?: string;
  readonly Developers: readonly LauncherDeveloper[];
  readonly CoreDependencies: readonly CoreDependency[];
}

/** The system information object of the specification (`GET /api/systeminfo`). */
export type SystemInfo = OperatingSystemInfo & MemoryInfo & LauncherInfo;

/** Reads system information; see {@link createSystemInfoReader}. */
export type SystemInfoReader = () => Promise<SystemInfo>;

/** The launcher fields, copied so later changes to the caller's object cannot leak in. */
export function launcherInfoOf(launcher: LauncherIdentity): LauncherInfo {
  return {
    LauncherName: launcher.name,
    LauncherVersion: launcher.version,
    VersionType: versionTypeOf(launcher.version),
    ...(launcher.gitCommit ? { GitCommit: launcher.gitCommit } : {}),
    Developers: (launcher.developers ?? []).map(({ name, role }) => ({ name, role })),
    CoreDependencies: (launcher.coreDependencies ?? []).map(({ name, version, license }) => ({ name, version, license })),
  };
}

/**
 * A reader of system information. The operating system and launcher parts never change while
 * the process runs, so they are read once (on first use, so starting the backend stays fast);
 * memory is read on every call because it is the one figure that moves.
 */
export function createSystemInfoReader(launcher: LauncherIdentity): SystemInfoReader {
  const launcherInfo = launcherInfoOf(launcher);
  let operatingSystem: Promise<OperatingSystemInfo> | undefined;
  return async function readSystemInfo() {
    // A failed read is not cached, so one bad moment does not break every later request.
    operatingSystem ??= readOperatingSystem().catch((error: unknown) => {
      operatingSystem = undefined;
      throw error;
    });
    const [os, memory] = await Promise.all([operatingSystem, readMemory()]);
    return { ...os, ...memory, ...launcherInfo };
  };
}
