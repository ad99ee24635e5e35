import { isAbsolute, relative, resolve, sep } from 'node:path';
import { unsafeEntry } from './package-errors.js';

/**
 * Resolves a package path (already checked by `findPackagePathProblem`) under `root`, and checks
 * once more that the result stays strictly inside it. The path rule is the real guard; this second
 * check is there so that a future change to the rule, or a platform quirk in `path.resolve`, can
 * never turn into writing outside the extraction folder (zip-slip).
 *
 * @throws PluginHostError `UNSAFE_ENTRY_PATH` when the destination would leave `root`.
 */
export function resolveInside(root: string, packagePath: string): string {
  // Resolved as one string: an absolute or drive-qualified path then lands outside `root` and
  // is refused below, instead of being quietly re-rooted.
  const destination = resolve(root, packagePath);
  const fromRoot = relative(root, destination);
  if (fromRoot === '' || isAbsolute(fromRoot) || fromRoot === '..' || fromRoot.startsWith(`..${sep}`)) {
    throw unsafeEntry(packagePath, 'resolves outside the extraction folder');
  }
  return destination;
}
