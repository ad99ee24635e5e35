import { arch, release, type, version } from 'node:os';
import { describeLinux } from './linux-description.js';
import { readMacos } from './macos-description.js';
import type { OsDescription } from './os-description.js';
import { readOsRelease } from './os-release.js';
import { describeWindows } from './windows-description.js';

/** The operating-system part of system information; it never changes while the process runs. */
export interface OperatingSystemInfo {
  /** The platform family: `Windows`, `macOS`, `Linux`, `FreeBSD`, `OpenBSD`, else what `os.type()` says. */
  readonly Os: string;
  /** The processor architecture in Node's words (`x64`, `arm64`, `arm`, ...), except `ia32`, reported as `x86`. */
  readonly Architecture: string;
  readonly OsName: string;
  readonly OsVersion: string;
  readonly OsVersionId: string;
  readonly OsDisplayName: string;
}

const FAMILIES: Readonly<Partial<Record<NodeJS.Platform, string>>> = {
  win32: 'Windows',
  darwin: 'macOS',
  linux: 'Linux',
  freebsd: 'FreeBSD',
  openbsd: 'OpenBSD',
};

/** `ia32` is Node's private name; everyone else (and .NET launchers) says `x86`. */
export function architectureName(nodeArch: string): string {
  return nodeArch === 'ia32' ? 'x86' : nodeArch;
}

/** The platform family reported as `Os`. */
export function osFamily(platform: NodeJS.Platform, osType: string): string {
  return FAMILIES[platform] ?? osType;
}

async function describe(platform: NodeJS.Platform): Promise<OsDescription> {
  if (platform === 'win32') return describeWindows(version(), release());
  if (platform === 'darwin') return readMacos(release());
  // Linux and the BSDs ship os-release; anything without one still gets the kernel's words.
  return describeLinux(await readOsRelease(), release());
}

/** Reads the operating system's description from the machine (call once; it does not change). */
export async function readOperatingSystem(platform: NodeJS.Platform = process.platform): Promise<OperatingSystemInfo> {
  const description = await describe(platform);
  return {
    Os: osFamily(platform, type()),
    Architecture: architectureName(arch()),
    OsName: description.name,
    OsVersion: description.version,
    OsVersionId: description.versionId,
    OsDisplayName: description.displayName,
  };
}
