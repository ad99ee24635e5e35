/**
 * A plugin author's commands, as the end-to-end journeys and benchmarks run them: the BUILT
 * pluginctl bundle and npm as child processes in temporary folders, with an environment of the
 * author's own (no PLUGINCTL_* of the test run, no colours, a private config folder) and one npm
 * cache per run of a test file (decisions 10).
 */
import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);

/** The built pluginctl file (`npm run build`; vitest's global setup builds it when stale). */
export const PLUGINCTL_CLI = join(process.cwd(), 'pluginctl/dist/pluginctl.mjs');

/** npm install of the react template (Vite, React, TypeScript, vitest) may go to the network. */
export const TEMPLATE_INSTALL_TIMEOUT_MS = 240_000;

/** What a command printed. */
export interface CommandOutput {
  readonly stdout: string;
  readonly stderr: string;
}

/** Where an author works: the folder of the run, its npm cache and the environment of every command. */
export interface AuthorWorkspace {
  readonly work: string;
  readonly npmCache: string;
  readonly env: NodeJS.ProcessEnv;
}

/** Prepares `work` (a fresh temporary folder) for an author: a config folder and the run's npm cache. */
export async function authorWorkspace(work: string, extraEnv: NodeJS.ProcessEnv = {}): Promise<AuthorWorkspace> {
  await mkdir(join(work, 'config'), { recursive: true });
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PLUGINCTL_')));
  return {
    work,
    npmCache: join(work, 'npm-cache'),
    env: {
      ...inherited,
      XDG_CONFIG_HOME: join(work, 'config'),
      // Plain output to match on: vitest sets FORCE_COLOR for its workers.
      FORCE_COLOR: '0',
      NO_COLOR: '1',
      npm_config_update_notifier: 'false',
      ...extraEnv,
    },
  };
}

/** Runs a command in `cwd`; a non-zero exit fails with everything it printed. */
export async function runCommand(workspace: AuthorWorkspace, cwd: string, command: string, args: readonly string[]): Promise<CommandOutput> {
  try {
    const { stdout, stderr } = await exec(command, args, { cwd, env: workspace.env, maxBuffer: 16 * 1024 * 1024 });
    return { stdout, stderr };
  } catch (error) {
    const { stdout = '', stderr = '', code } = error as { stdout?: string; stderr?: string; code?: unknown };
    throw new Error(`${command} ${args.join(' ')} in ${cwd} exited with ${String(code)}\nstdout:\n${stdout}\nstderr:\n${stderr}`);
  }
}

/** `pluginctl <args>` with the built bundle. */
export function runPluginctl(workspace: AuthorWorkspace, cwd: string, ...args: string[]): Promise<CommandOutput> {
  return runCommand(workspace, cwd, process.execPath, [PLUGINCTL_CLI, ...args]);
}

/** `npm <args>` with the run's npm cache, offline when the cache already has a package. */
export function runNpm(workspace: AuthorWorkspace, cwd: string, ...args: string[]): Promise<CommandOutput> {
  return runCommand(workspace, cwd, 'npm', [...args, '--cache', workspace.npmCache, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error']);
}
