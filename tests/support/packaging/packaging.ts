/**
 * Helpers of tests/e2e/packaging.test.ts: pack the public workspaces, install the tarballs into a
 * temporary vendor app, and read what the packages declare and import.
 */
import { spawn } from 'node:child_process';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import ts from 'typescript';

/** The workspaces a vendor installs (demo-launcher is private). */
export const PUBLIC_WORKSPACES = ['host-sdk', 'backend-kit', 'registry', 'web-components', 'pluginctl'] as const;

export interface CommandResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command to its end, collecting its output (never rejects on a non-zero exit). */
export function run(command: string, args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** A failed command as an Error that shows what it printed. */
export function commandFailure(what: string, result: CommandResult): Error {
  return new Error(`${what} failed (exit ${result.status}):\n${result.stdout.slice(-4000)}\n${result.stderr.slice(-4000)}`);
}

/** One tarball written by `npm pack --json`. */
export interface PackedTarball {
  readonly name: string;
  readonly filename: string;
  readonly files: readonly string[];
}

/** Packs every public workspace into `destination` with one `npm pack` (prepack scripts run). */
export async function packWorkspaces(root: string, destination: string): Promise<PackedTarball[]> {
  const args = ['pack', ...PUBLIC_WORKSPACES.flatMap((workspace) => ['--workspace', workspace]), '--pack-destination', destination, '--json'];
  const result = await run('npm', args, { cwd: root });
  if (result.status !== 0) throw commandFailure('npm pack', result);
  const packed = JSON.parse(result.stdout) as { name: string; filename: string; files: { path: string }[] }[];
  return packed.map((entry) => ({ name: entry.name, filename: join(destination, entry.filename), files: entry.files.map((file) => file.path) }));
}

/**
 * Installs `dependencies` (tarball paths as `file:` specs, plus registry packages) into a new app.
 * The npm cache already holds every registry package (the repository installed them), so this
 * tries `--offline` first; a cache filled by `npm ci` alone lacks the package documents a fresh
 * resolution needs, and then `--prefer-offline` fetches only those. Install scripts are off: the
 * only one is better-sqlite3's native build (about 53 s), and nothing here opens a database
 * (the registry loads its native addon only when it opens one).
 */
export async function installApp(
  directory: string,
  dependencies: Record<string, string>,
  layout: 'linked' | 'hoisted',
): Promise<{ mode: 'offline' | 'prefer-offline' }> {
  await writeFile(
    join(directory, 'package.json'),
    `${JSON.stringify({ name: `vendor-app-${layout}`, private: true, type: 'module', dependencies }, null, 2)}\n`,
  );
  const base = ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--install-strategy', layout];
  const offline = await run('npm', [...base, '--offline'], { cwd: directory });
  if (offline.status === 0) return { mode: 'offline' };
  const online = await run('npm', [...base, '--prefer-offline'], { cwd: directory });
  if (online.status !== 0) throw commandFailure(`npm install (${layout})`, online);
  return { mode: 'prefer-offline' };
}

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`), or null for a builtin. */
export function packageOf(specifier: string): string | null {
  if (specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0] ?? '')) return null;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] ?? specifier);
}

/**
 * Every bare specifier imported or referenced (`/// <reference types>`) by the .js, .mjs and .d.ts
 * files under `directory`, with one file using it. TypeScript's pre-processor reads them, so
 * comments and strings that merely mention a package (the pluginctl bundle has both) do not count.
 */
export async function bareImports(directory: string): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const entry of await readdir(directory, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.(?:m?js|d\.ts)$/.test(entry.name)) continue;
    const path = join(entry.parentPath, entry.name);
    const { importedFiles, typeReferenceDirectives } = ts.preProcessFile(await readFile(path, 'utf8'), true, true);
    for (const { fileName } of [...importedFiles, ...typeReferenceDirectives]) {
      if (!/^[./]/.test(fileName) && !found.has(fileName)) found.set(fileName, path);
    }
  }
  return found;
}

/** The TypeScript block of a section of a Markdown file (the first ```ts fence after `heading`). */
export async function typeScriptOf(markdownPath: string, heading: string): Promise<string> {
  const text = await readFile(markdownPath, 'utf8');
  const section = text.indexOf(`\n${heading}\n`);
  if (section < 0) throw new Error(`${markdownPath} has no "${heading}" section`);
  const fence = /\n```ts\n([\s\S]*?)\n```\n/.exec(text.slice(section));
  if (!fence) throw new Error(`"${heading}" in ${markdownPath} has no TypeScript block`);
  return `${fence[1]}\n`;
}

/** How a subpath of `exports` is checked: imported, parsed as a classic script, or type-checked. */
export type EntryKind = 'module' | 'script' | 'types';

/** The public subpaths of a package's `exports` (not `./package.json`) and how each is checked. */
export function entryPoints(name: string, exports: Record<string, unknown>): { specifier: string; kind: EntryKind }[] {
  return Object.entries(exports)
    .filter(([subpath]) => subpath !== './package.json')
    .map(([subpath, target]) => {
      const specifier = subpath === '.' ? name : `${name}/${subpath.slice(2)}`;
      // A plain string target is a file: the guest runtime is a classic script (an IIFE), not a module.
      if (typeof target === 'string') return { specifier, kind: /\.iife\.js$/.test(target) ? ('script' as const) : ('module' as const) };
      return { specifier, kind: (target as Record<string, unknown>).default === undefined ? ('types' as const) : ('module' as const) };
    });
}
