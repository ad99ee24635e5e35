// What a vendor's install pulls in: the packages reachable from some roots in an app's
// package-lock.json (lockfile v2/v3), resolved the way Node resolves them (nearest node_modules
// upwards). Peers count, as npm installs them; optional peers do not (the app chooses them).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

interface LockedPackage {
  readonly version?: string;
  readonly link?: boolean;
  readonly resolved?: string;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly optionalDependencies?: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
  readonly peerDependenciesMeta?: Readonly<Record<string, { readonly optional?: boolean }>>;
}

/** Where `name` resolves from the package at `from` (a lockfile path such as `node_modules/a`). */
function resolveFrom(packages: Readonly<Record<string, LockedPackage>>, from: string, name: string): string | undefined {
  let base = from;
  for (;;) {
    const candidate = base === '' ? `node_modules/${name}` : `${base}/node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (base === '') return undefined;
    const cut = base.lastIndexOf('/node_modules/');
    base = cut === -1 ? '' : base.slice(0, cut);
  }
}

/**
 * The distinct `name@version`s an app installs for `roots` (package names the app depends on),
 * sorted. A package installed twice in two versions counts twice, as it is on disk twice.
 */
export async function installClosure(app: string, roots: readonly string[]): Promise<string[]> {
  const lock = JSON.parse(await readFile(join(app, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockedPackage> };
  const packages = lock.packages;
  const seen = new Set<string>();
  const found = new Set<string>();
  const visit = (path: string): void => {
    if (seen.has(path)) return;
    seen.add(path);
    const entry = packages[path];
    if (!entry) return;
    // A `file:` tarball or a link: follow to where its files are.
    if (entry.link && entry.resolved) {
      visit(entry.resolved);
      return;
    }
    const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    found.add(`${name}@${entry.version ?? '?'}`);
    const optionalPeers = new Set(Object.entries(entry.peerDependenciesMeta ?? {}).flatMap(([peer, meta]) => (meta.optional ? [peer] : [])));
    const wanted = [
      ...Object.keys(entry.dependencies ?? {}),
      ...Object.keys(entry.optionalDependencies ?? {}),
      ...Object.keys(entry.peerDependencies ?? {}).filter((peer) => !optionalPeers.has(peer)),
    ];
    for (const dependency of wanted) {
      const resolved = resolveFrom(packages, path, dependency);
      if (resolved) visit(resolved);
    }
  };
  for (const root of roots) {
    const resolved = resolveFrom(packages, '', root);
    if (!resolved) throw new Error(`${root} is not in ${app}/package-lock.json`);
    visit(resolved);
  }
  return [...found].sort();
}
