import { isAbsolute, relative, sep } from 'node:path';

/**
 * True when `path` is `prefix` itself or lies below it, compared at separator boundaries
 * (`/a/b` covers `/a/b` and `/a/b/c`, never `/a/bc`). Both must be absolute and already
 * resolved. Windows paths compare without case, as NTFS names do.
 */
export function isPathWithin(prefix: string, path: string, platform: NodeJS.Platform = process.platform): boolean {
  const [base, target] = platform === 'win32' ? [prefix.toLowerCase(), path.toLowerCase()] : [prefix, path];
  const rest = relative(base, target);
  if (rest === '') return true;
  // `relative` starts with `..` when `target` is outside, and is absolute across Windows drives.
  return !isAbsolute(rest) && rest !== '..' && !rest.startsWith(`..${sep}`);
}
