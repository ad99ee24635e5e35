import { spawn } from 'node:child_process';
import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CliError } from '../cli-error.js';
import { DEV_BUILD_ENV } from '../dev/hot-reloader.js';

/** How a project is built before packing (specification: "Command-line tool", `pack`). */
export type BuildPlan =
  | { readonly kind: 'npm'; readonly command: string; readonly args: readonly string[] }
  | { readonly kind: 'native'; readonly command: string; readonly args: readonly string[] }
  | { readonly kind: 'none' };

/** The native build script of a wasm project without a package build script. */
export const NATIVE_BUILD_SCRIPT = 'build.sh';

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/**
 * Picks the build: `npm run build` when `package.json` has a `build` script; `sh build.sh` for a
 * wasm project (manifest layer `l3`) that has one; nothing for a static project.
 */
export async function planBuild(root: string, manifest: { layers?: readonly string[] }): Promise<BuildPlan> {
  const packageText = await readFile(join(root, 'package.json'), 'utf8').catch(() => undefined);
  if (packageText !== undefined) {
    let scripts: unknown;
    try {
      scripts = (JSON.parse(packageText) as { scripts?: unknown }).scripts;
    } catch {
      throw new CliError('INVALID_PROJECT', 'package.json is not valid JSON. Fix it, or pack with --skip-build.');
    }
    if (typeof scripts === 'object' && scripts !== null && typeof (scripts as Record<string, unknown>).build === 'string') {
      return { kind: 'npm', command: process.platform === 'win32' ? 'npm.cmd' : 'npm', args: ['run', 'build'] };
    }
  }
  if (manifest.layers?.includes('l3') && (await exists(join(root, NATIVE_BUILD_SCRIPT)))) {
    return { kind: 'native', command: 'sh', args: [NATIVE_BUILD_SCRIPT] };
  }
  return { kind: 'none' };
}

/**
 * Runs the build in `root`. Its output goes to stderr, so `--json` keeps stdout for the result.
 *
 * @throws CliError `BUILD_FAILED` with the exit status.
 */
export function runBuild(root: string, plan: Exclude<BuildPlan, { kind: 'none' }>): Promise<void> {
  return new Promise((resolve, reject) => {
    // A package always holds the release build, even when the author's shell exported the dev switch.
    const env = { ...process.env };
    delete env[DEV_BUILD_ENV];
    const child = spawn(plan.command, [...plan.args], {
      cwd: root,
      env,
      stdio: ['ignore', process.stderr, process.stderr],
      shell: process.platform === 'win32',
    });
    child.once('error', (error) =>
      reject(
        new CliError(
          'BUILD_FAILED',
          `Could not start the build (${plan.command} ${plan.args.join(' ')}): ${error.message}. Install it, or pack with --skip-build.`,
        ),
      ),
    );
    child.once('exit', (code, signal) => {
      if (code === 0) resolve();
      else
        reject(
          new CliError(
            'BUILD_FAILED',
            `The build (${plan.command} ${plan.args.join(' ')}) failed with ${signal ?? `exit status ${code}`}. Fix the errors above, or pack the files as they are with --skip-build.`,
          ),
        );
    });
  });
}
