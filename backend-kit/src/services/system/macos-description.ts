import { execFile } from 'node:child_process';
import { childEnvironment } from './child-environment.js';
import type { OsDescription } from './os-description.js';

/** What `sw_vers` prints for its three fields. */
export interface SwVersFields {
  /** `-productName`, e.g. `macOS` (older systems: `Mac OS X`). */
  productName: string;
  /** `-productVersion`, e.g. `14.4.1`. */
  productVersion: string;
  /** `-buildVersion`, e.g. `23E224`. */
  buildVersion: string;
}

/** The description of a macOS system from `sw_vers`. */
export function describeMacos(fields: SwVersFields): OsDescription {
  const name = fields.productName || 'macOS';
  const version = fields.buildVersion ? `${fields.productVersion} (${fields.buildVersion})` : fields.productVersion;
  return { name, version, versionId: fields.productVersion, displayName: `${name} ${fields.productVersion}` };
}

function swVers(flag: string): Promise<string> {
  return new Promise((resolve) => {
    // An argument array, no shell; a short timeout so a wedged tool cannot stall a request.
    execFile('sw_vers', [flag], { timeout: 2000, env: childEnvironment() }, (error, stdout) => resolve(error ? '' : String(stdout).trim()));
  });
}

/**
 * Runs `sw_vers` for the product name, version and build. When it is unavailable the Darwin
 * kernel release stands in, which is truthful if less friendly.
 */
export async function readMacos(kernelRelease: string): Promise<OsDescription> {
  const [productName, productVersion, buildVersion] = await Promise.all([swVers('-productName'), swVers('-productVersion'), swVers('-buildVersion')]);
  if (!productVersion) return { name: 'macOS', version: `Darwin ${kernelRelease}`, versionId: kernelRelease, displayName: `macOS (Darwin ${kernelRelease})` };
  return describeMacos({ productName, productVersion, buildVersion });
}
