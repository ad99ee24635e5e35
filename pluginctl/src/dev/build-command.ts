import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CliError } from '../cli-error.js';

/** A package manager whose `run build` the dev loop runs. */
export type PackageManager = 'npm' | 'pnpm' | 'yarn' | 'bun';

/** How the dev loop rebuilds a plugin project. */
export interface BuildCommand {
  /** What the log and the pages show: `pnpm run build`, or the `--build-cmd` text. */
  readonly display: string;
  /** The program to start (or, with {@link BuildCommand.shell}, the whole command line). */
  readonly file: string;
  readonly args: readonly string[];
  /** True when `file` is a command line for the shell (`--build-cmd`, and package managers on Windows). */
  readonly shell: boolean;
}

/**
 * Lock files and the package manager each one means, in the order they are looked for: a project
 * with several lock files gets the first.
 */
export const LOCK_FILES: readonly { readonly file: string; readonly manager: PackageManager }[] = [
  { file: 'package-lock.json', manager: 'npm' },
  { file: 'pnpm-lock.yaml', manager: 'pnpm' },
  { file: 'yarn.lock', manager: 'yarn' },
  { file: 'bun.lockb', manager: 'bun' },
  { file: 'bun.lock', manager: 'bun' },
];

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/** The package manager of `dir` by its lock file; npm when there is none. */
export async function detectPackageManager(dir: string): Promise<PackageManager> {
  for (const { file, manager } of LOCK_FILES) {
    if (await exists(join(dir, file))) return manager;
  }
  return 'npm';
}

/** True when `dir/package.json` has a string `scripts.build`. */
async function hasBuildScript(dir: string): Promise<boolean> {
  let text: string;
  try {
    text = await readFile(join(dir, 'package.json'), 'utf8');
  } catch {
    return false;
  }
  let scripts: unknown;
  try {
    scripts = (JSON.parse(text) as { scripts?: unknown }).scripts;
  } catch {
    throw new CliError('INVALID_PROJECT', `${join(dir, 'package.json')} is not valid JSON. Fix it, or pass --build-cmd "<command>".`);
  }
  return typeof scripts === 'object' && scripts !== null && typeof (scripts as Record<string, unknown>).build === 'string';
}

/**
 * The build the dev loop runs in `dir` (specification, "Debug harness stub"): `override` (the
 * `--build-cmd` text) through the shell when given; otherwise `<package manager> run build` when
 * `package.json` has a `build` script, the package manager chosen by the lock file
 * ({@link LOCK_FILES}); otherwise `null`: the project has no build and its files are served as
 * they are.
 *
 * @throws CliError `INVALID_PROJECT` when `package.json` is not valid JSON (and no override is given).
 */
export async function detectBuildCommand(dir: string, override?: string): Promise<BuildCommand | null> {
  if (override !== undefined && override.trim() !== '') return { display: override, file: override, args: [], shell: true };
  if (!(await hasBuildScript(dir))) return null;
  const manager = await detectPackageManager(dir);
  // Windows installs package managers as .cmd shims, which Node starts only through the shell.
  const windows = process.platform === 'win32';
  return { display: `${manager} run build`, file: windows ? `${manager}.cmd` : manager, args: ['run', 'build'], shell: windows };
}
