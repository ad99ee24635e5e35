/**
 * The registry is its own package so the launcher's local backend needs no native build
 * (decisions section 9): importing the built `@plughost/backend-kit` must not load better-sqlite3,
 * and the backend kit must not declare it. The same probe on the registry's bundle is the control
 * that shows the probe sees better-sqlite3 when it is loaded.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
const run = promisify(execFile);

// Imports one built entry in a fresh `node` (no source condition, so the package's dist runs as a
// vendor's app would run it) and prints its export names and the modules loaded from
// better-sqlite3: that package is CommonJS, so an ES import of it goes through the CommonJS loader
// and lands in its cache.
const PROBE = `
import { createRequire } from 'node:module';
const exported = Object.keys(await import(process.argv[1]));
const cache = createRequire(import.meta.url).cache;
const betterSqlite = Object.keys(cache).filter((path) => /[\\\\/]better-sqlite3[\\\\/]/.test(path));
process.stdout.write(JSON.stringify({ exported, betterSqlite }));
`;

interface ProbeResult {
  /** The entry's export names. */
  readonly exported: string[];
  /** The better-sqlite3 files loaded once the entry was imported. */
  readonly betterSqlite: string[];
}

/** Imports `entry` (a built file, relative to the repository) in a fresh Node process. */
async function probe(entry: string): Promise<ProbeResult> {
  const url = pathToFileURL(join(ROOT, entry)).href;
  const { stdout } = await run(process.execPath, ['--input-type=module', '--eval', PROBE, url], { cwd: ROOT });
  return JSON.parse(stdout) as ProbeResult;
}

interface PackageJson {
  readonly dependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
}

async function packageJsonOf(workspace: string): Promise<PackageJson> {
  return JSON.parse(await readFile(join(ROOT, workspace, 'package.json'), 'utf8')) as PackageJson;
}

function declaredNames(pkg: PackageJson): string[] {
  return [pkg.dependencies, pkg.devDependencies, pkg.peerDependencies, pkg.optionalDependencies].flatMap((list) => Object.keys(list ?? {}));
}

// The vitest global setup builds the bundles when they are missing or stale.
describe('the backend kit has no native dependency', () => {
  it('importing the built @plughost/backend-kit (createLocalBackend) loads no better-sqlite3 module', async () => {
    const { exported, betterSqlite } = await probe('backend-kit/dist/index.js');
    expect(exported).toContain('createLocalBackend');
    expect(exported).not.toContain('createRegistry');
    expect(betterSqlite).toEqual([]);
  });

  it('the probe sees better-sqlite3 once the built @plughost/registry is imported (control)', async () => {
    const { exported, betterSqlite } = await probe('registry/dist/index.js');
    expect(exported).toContain('createRegistry');
    expect(betterSqlite.some((path) => /[\\/]better-sqlite3[\\/]lib[\\/]index\.js$/.test(path))).toBe(true);
  });

  it('better-sqlite3 is declared by the registry package, not by the backend kit', async () => {
    expect(declaredNames(await packageJsonOf('backend-kit'))).not.toContain('better-sqlite3');
    expect(declaredNames(await packageJsonOf('backend-kit'))).not.toContain('@types/better-sqlite3');
    expect((await packageJsonOf('registry')).dependencies).toHaveProperty('better-sqlite3');
  });
});
