import type { OsDescription } from './os-description.js';
import type { OsReleaseFields } from './os-release.js';

/**
 * The description of a Linux (or other os-release) system. Missing fields fall back the way
 * os-release(5) says (`NAME` defaults to `Linux`); a rolling distribution without `VERSION` or
 * `VERSION_ID` reports its `BUILD_ID`, else the kernel release, so every field stays a usable string.
 */
export function describeLinux(fields: OsReleaseFields, kernelRelease: string): OsDescription {
  const name = fields.NAME || 'Linux';
  const versionId = fields.VERSION_ID || fields.BUILD_ID || kernelRelease;
  const version = fields.VERSION || versionId;
  const displayName = fields.PRETTY_NAME || `${name} ${version}`;
  return { name, version, versionId, displayName };
}
