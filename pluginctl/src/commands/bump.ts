import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { compareVersions, findVersionProblem } from '@plughost/host-sdk/core';
import { parseArgs } from '../args.js';
import { CliError } from '../cli-error.js';

/** The part of the version `bump` raises. */
export type BumpKind = 'major' | 'minor' | 'patch';

const KINDS: readonly BumpKind[] = ['major', 'minor', 'patch'];

/** Options of {@link bump}. */
export interface BumpOptions {
  /** The plugin folder (holding `manifest.json`). */
  directory: string;
  /** Which part to raise (default `minor`, as the specification says); ignored when `version` is given. */
  kind?: BumpKind;
  /** An explicit new version, which must be higher than the current one. */
  version?: string;
}

/** What {@link bump} changed. */
export interface BumpResult {
  previous: string;
  version: string;
  /** The files rewritten, relative to the folder (`manifest.json`, and `package.json` when present). */
  files: string[];
}

const HELP = `Usage: pluginctl bump [major|minor|patch] [--version v]

Raises the version in manifest.json, and in package.json when the folder has one
(default: minor). Run it in the plugin's folder.

Options:
  --version v  Set exactly this version (must be higher than the current one);
               the part to raise may then be left out
  --json       Print {previous, version, files} as JSON
  -h, --help   Show this help
`;

/**
 * The next version after `current`, as `npm version` computes it: a pre-release of the part being
 * raised is released (`1.3.0-beta.1` minor gives `1.3.0`), anything else raises that part and
 * resets the lower ones; build metadata is dropped.
 */
export function nextVersion(current: string, kind: BumpKind): string {
  const match = /^(\d+)\.(\d+)\.(\d+)(-[^+]*)?/.exec(current);
  if (!match) throw new CliError('INVALID_MANIFEST', `The current version "${current}" is not a semver version; set one with --version.`);
  const [major, minor, patch] = [BigInt(match[1] ?? '0'), BigInt(match[2] ?? '0'), BigInt(match[3] ?? '0')];
  const pre = match[4] !== undefined;
  if (kind === 'major') return pre && minor === 0n && patch === 0n ? `${major}.0.0` : `${major + 1n}.0.0`;
  if (kind === 'minor') return pre && patch === 0n ? `${major}.${minor}.0` : `${major}.${minor + 1n}.0`;
  return pre ? `${major}.${minor}.${patch}` : `${major}.${minor}.${patch + 1n}`;
}

/**
 * Finds the string value of the top-level `"version"` key in JSON `text` and returns its offsets
 * (quotes included). Editing the text in place, instead of re-serialising, keeps the author's
 * formatting: inline arrays, key order, final newline.
 */
function findTopLevelVersion(text: string): { start: number; end: number } | undefined {
  let depth = 0;
  let pendingKey: string | undefined;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (char === '"') {
      const start = i;
      for (i += 1; i < text.length && text[i] !== '"'; i += text[i] === '\\' ? 2 : 1);
      const raw = text.slice(start, i + 1);
      if (depth === 1 && pendingKey === 'version') return { start, end: i + 1 };
      const after = text.slice(i + 1).match(/^\s*:/);
      pendingKey = depth === 1 && after ? (JSON.parse(raw) as string) : undefined;
    } else if (char === '{' || char === '[') {
      depth += 1;
      pendingKey = undefined;
    } else if (char === '}' || char === ']') {
      depth -= 1;
    } else if (char === ',') {
      pendingKey = undefined;
    }
  }
  return undefined;
}

/** Writes `content` next to `path` under a temporary name, then renames it over `path`. */
export async function writeFileAtomic(path: string, content: string): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(temporary, content, { flag: 'wx' });
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

interface VersionedFile {
  name: string;
  path: string;
  text: string;
  span: { start: number; end: number };
  version: string;
}

async function readVersioned(directory: string, name: string, required: boolean): Promise<VersionedFile | undefined> {
  const path = join(directory, name);
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' && !required) return undefined;
    if (error.code === 'ENOENT') throw new CliError('FILE_NOT_FOUND', `No ${name} in ${directory}. Run bump in the plugin's folder.`);
    throw error;
  });
  if (text === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CliError('INVALID_MANIFEST', `${name} is not valid JSON (${(error as Error).message}). Fix it, then run bump again.`);
  }
  const version = (parsed as { version?: unknown } | null)?.version;
  const span = findTopLevelVersion(text);
  if (typeof version !== 'string' || !span) {
    if (!required) return undefined;
    throw new CliError('INVALID_MANIFEST', `${name} has no "version" string. Add one (such as "1.0.0"), then run bump again.`);
  }
  return { name, path, text, span, version };
}

/**
 * Raises the version of the plugin in `directory`: `manifest.json`'s `version`, and
 * `package.json`'s when the folder has one. Both are checked before either is written, and each is
 * replaced atomically with only the version string changed.
 *
 * @example
 * ```ts
 * await bump({ directory: '.', kind: 'minor' }); // 1.2.3 → 1.3.0
 * ```
 */
export async function bump(options: BumpOptions): Promise<BumpResult> {
  const directory = resolve(options.directory);
  const found = await stat(directory).catch(() => null);
  if (!found?.isDirectory()) throw new CliError('FILE_NOT_FOUND', `No folder at ${directory}.`);
  const manifest = await readVersioned(directory, 'manifest.json', true);
  if (!manifest) throw new CliError('FILE_NOT_FOUND', `No manifest.json in ${directory}.`);
  const previous = manifest.version;
  const version = options.version ?? nextVersion(previous, options.kind ?? 'minor');
  const problem = findVersionProblem(version);
  if (problem) throw new CliError('INVALID_ARGUMENT', `The version ${problem}.`);
  if (findVersionProblem(previous) === null && compareVersions(version, previous) <= 0) {
    throw new CliError(
      'INVALID_ARGUMENT',
      `${version} is not higher than the current version ${previous}. Give a higher version, or bump major, minor or patch.`,
    );
  }
  const packageJson = await readVersioned(directory, 'package.json', false);
  const files = [manifest, ...(packageJson ? [packageJson] : [])];
  for (const file of files) {
    await writeFileAtomic(file.path, `${file.text.slice(0, file.span.start)}${JSON.stringify(version)}${file.text.slice(file.span.end)}`);
  }
  return { previous, version, files: files.map((file) => file.name) };
}

/** `pluginctl bump major|minor|patch [--version v] [--json]` */
export async function run(argv: readonly string[]): Promise<number> {
  const { options, positionals } = parseArgs(argv, { valued: ['version'], flags: ['json', 'help'], short: { h: 'help' } });
  if (options.help === true) {
    process.stdout.write(HELP);
    return 0;
  }
  const [kind, extra] = positionals;
  if (extra !== undefined) throw new CliError('INVALID_ARGUMENT', `Unexpected argument "${extra}". Run \`pluginctl bump --help\`.`);
  const version = typeof options.version === 'string' ? options.version : undefined;
  if (kind !== undefined && !KINDS.includes(kind as BumpKind)) {
    throw new CliError('INVALID_ARGUMENT', `Unknown part "${kind}": use major, minor or patch (or --version <v>).`);
  }
  const result = await bump({ directory: process.cwd(), ...(kind !== undefined && { kind: kind as BumpKind }), ...(version !== undefined && { version }) });
  if (options.json === true) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else process.stdout.write(`${result.previous} → ${result.version} (${result.files.join(', ')})\n`);
  return 0;
}
