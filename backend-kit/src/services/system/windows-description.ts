import type { OsDescription } from './os-description.js';

// Windows 11 kept the kernel version 10.0; only its build number (22000 and later) tells it apart.
const FIRST_WINDOWS_11_BUILD = 22000;

/**
 * The description of a Windows system from `os.version()` (the product name, e.g.
 * `Windows 10 Pro`) and `os.release()` (`10.0.22631`). Windows 11 still calls itself
 * "Windows 10" in the product name, so the build number decides.
 */
export function describeWindows(productName: string, release: string): OsDescription {
  const [major = '', minor = '', build = ''] = release.split('.');
  const isWindows11 = major === '10' && minor === '0' && Number(build) >= FIRST_WINDOWS_11_BUILD;
  const marketed = isWindows11 ? '11' : major === '10' ? '10' : release;
  const displayName = isWindows11 ? productName.replace(/^Windows 10\b/, 'Windows 11') : productName || `Windows ${marketed}`;
  return { name: 'Windows', version: `${marketed} (${release})`, versionId: marketed, displayName };
}
