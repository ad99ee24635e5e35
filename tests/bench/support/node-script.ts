/**
 * Runs a TypeScript script of the benchmarks in its own Node process (a server under load, the
 * load generator, one install), through tsx with the workspaces' source condition, so it needs no
 * build. `NODE_SCRIPT_PROFILE=<folder>` adds `--cpu-prof` to every such process, writing its CPU
 * profile there (open it in Chromium's DevTools, Performance panel).
 */
import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { promisify } from 'node:util';
import { startProcess, type RunningProcess } from '../../support/processes.js';

const run = promisify(execFile);

/** The repository root: tsx and the workspaces resolve from there. */
export const REPOSITORY_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The path of a script in this folder (`load-generator.ts`). */
export function supportScript(name: string): string {
  return fileURLToPath(new URL(`./${name}`, import.meta.url));
}

function nodeArguments(script: string, args: readonly string[]): string[] {
  const profile = process.env.NODE_SCRIPT_PROFILE;
  return [...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []), '--conditions=@plughost/source', '--import', 'tsx', script, ...args];
}

/** Starts `script` and leaves it running (a server); stop it with `stop()`. */
export function startNodeScript(script: string, args: readonly string[] = []): RunningProcess {
  return startProcess(process.execPath, nodeArguments(script, args), { cwd: REPOSITORY_ROOT });
}

async function lastJsonLine<Result>(args: readonly string[]): Promise<Result> {
  const { stdout } = await run(process.execPath, args, { cwd: REPOSITORY_ROOT, maxBuffer: 16 * 1024 * 1024 });
  const last = stdout.trim().split('\n').at(-1) ?? '';
  return JSON.parse(last) as Result;
}

/** Runs `script` to its end and parses the last line it printed as JSON. */
export function runNodeScript<Result>(script: string, args: readonly string[] = []): Promise<Result> {
  return lastJsonLine<Result>(nodeArguments(script, args));
}

/**
 * Bundles `script` and what it imports (workspaces from their sources) into one plain JavaScript
 * file in a temporary folder, for measurements a TypeScript loader would distort (peak memory).
 * Returns the bundle's path; run it with {@link runBundledScript}.
 */
export async function bundleNodeScript(script: string): Promise<string> {
  const outfile = join(await mkdtemp(join(tmpdir(), 'bench-script-')), 'script.mjs');
  await build({
    entryPoints: [script],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@plughost/source'],
    sourcemap: true,
    logLevel: 'error',
    // CommonJS dependencies call require() for Node's modules; an ES module bundle needs it defined.
    banner: { js: "import { createRequire as __benchRequire } from 'node:module'; const require = __benchRequire(import.meta.url);" },
  });
  return outfile;
}

/** Runs a bundle of {@link bundleNodeScript} to its end and parses the last line it printed as JSON. */
export function runBundledScript<Result>(bundle: string, args: readonly string[] = []): Promise<Result> {
  const profile = process.env.NODE_SCRIPT_PROFILE;
  return lastJsonLine<Result>([...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []), bundle, ...args]);
}

/** True in the script Node was started with (`isMainScript(import.meta.url)`), false when imported. */
export function isMainScript(moduleUrl: string): boolean {
  const entry = process.argv[1];
  return entry !== undefined && moduleUrl === pathToFileURL(entry).href;
}
