/**
 * `pluginctl pack` without the command line: build, collect, check as a launcher would, sign when
 * asked, and write a deterministic `.plugpkg`. `publish` reuses {@link packPlugin}.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import {
  CERTIFICATE_FILE_NAME,
  PACKAGE_PATH_PROBLEM_TEXT,
  SIGNATURE_FILE_NAME,
  findPackagePathProblem,
  formatManifestProblem,
  isPluginHostError,
  packagePathCollisionKey,
  parseManifest,
  serializeSignatureFile,
  sha256Hex,
  utf8Encode,
} from '@plughost/host-sdk/core';
import { readPrivateKey, signPackageWithNodeCrypto } from '@plughost/host-sdk/node';
import { CliError } from '../cli-error.js';
import { type BuildPlan, planBuild, runBuild } from './build-step.js';
import { collectProjectFiles } from './collect-files.js';
import { type ZipEntry, writeZip } from '@plughost/backend-kit';

/** Options of {@link packPlugin}. */
export interface PackOptions {
  /** The project folder (holds `manifest.json`). */
  readonly root: string;
  /** Where the package goes; default `<root>/release`. */
  readonly outDir?: string;
  /** Sets `version` in the packed manifest (the project's file is not changed). */
  readonly version?: string;
  /** `--key`: a file holding a PKCS#8 PEM or base64 seed, or the base64 seed itself. */
  readonly key?: string;
  readonly skipBuild?: boolean;
  /** Called before the build starts, for progress output. */
  readonly onBuild?: (plan: Exclude<BuildPlan, { kind: 'none' }>) => void;
}

/** What {@link packPlugin} wrote. */
export interface PackResult {
  readonly path: string;
  readonly id: string;
  readonly version: string;
  /** Files in the archive, `signature.json` included. */
  readonly files: number;
  readonly bytes: number;
  readonly sha256: string;
  readonly build: BuildPlan['kind'] | 'skipped';
  /** The signing key's id when `signature.json` was added. */
  readonly signerKeyId: string | null;
  /** Symbolic links that were left out. */
  readonly skippedLinks: readonly string[];
}

/** Root names the launcher's backend writes itself (backend-kit refuses them in a package). */
const RESERVED_ROOT_NAMES = ['settings.json', 'cache.json'];

function refuse(reason: string): never {
  throw new CliError('PACK_REFUSED', reason);
}

async function readManifestSource(root: string): Promise<{ bytes: Uint8Array; value: Record<string, unknown> }> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(join(root, 'manifest.json'));
  } catch {
    throw new CliError('NO_MANIFEST', `No manifest.json in ${root}. Run pack in a plugin project (pluginctl create <id> makes one).`);
  }
  const parsed = parseManifest(bytes);
  if (!parsed.ok && parsed.problems.some((p) => p.path === '' && /JSON|UTF-8|repeats/.test(p.message))) {
    refuse(`manifest.json cannot be read: ${parsed.problems.map(formatManifestProblem).join('; ')}`);
  }
  const text = Buffer.from(bytes)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  return { bytes, value: JSON.parse(text) as Record<string, unknown> };
}

/** Refuses archive paths a launcher would refuse: unsafe, colliding, reserved or stale signature files. */
function checkPaths(paths: readonly string[]): void {
  const seen = new Map<string, string>();
  for (const path of paths) {
    const problem = findPackagePathProblem(path);
    if (problem !== null)
      refuse(`The file "${path}" ${PACKAGE_PATH_PROBLEM_TEXT[problem]}; launchers refuse such packages. Rename it or list it in .plugignore.`);
    const key = packagePathCollisionKey(path);
    const other = seen.get(key);
    if (other !== undefined) refuse(`"${other}" and "${path}" are the same file on Windows and macOS; launchers refuse such packages. Rename one.`);
    seen.set(key, path);
    if (RESERVED_ROOT_NAMES.includes(path.toLowerCase())) {
      refuse(`A root ${path} is refused by launchers: the launcher keeps the plugin's own ${path} there. Move it into a folder or list it in .plugignore.`);
    }
    if (path === SIGNATURE_FILE_NAME || path === CERTIFICATE_FILE_NAME) {
      refuse(`The project has a root ${path}, which would be read as the package's signature. Delete it (pack --key and publish write a fresh one).`);
    }
  }
}

function readKey(keyText: string): ReturnType<typeof readPrivateKey> {
  try {
    return readPrivateKey(keyText);
  } catch (error) {
    if (isPluginHostError(error)) throw new CliError('INVALID_KEY', `${error.message}. Give --key a PKCS#8 PEM file or the base64 of a 32-byte seed.`);
    throw error;
  }
}

async function keyTextOf(key: string): Promise<string> {
  // A file path first (the usual form); otherwise the value itself is the base64 seed.
  try {
    return (await readFile(key, 'utf8')).trim();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENAMETOOLONG') {
      if (key.includes('/') || key.includes('\\') || /\.(pem|key|txt)$/i.test(key)) {
        throw new CliError('INVALID_KEY', `No key file at ${key}. Give --key a PKCS#8 PEM file or the base64 of a 32-byte seed.`);
      }
      return key.trim();
    }
    throw new CliError('INVALID_KEY', `The key file ${key} cannot be read (${code ?? 'error'}).`);
  }
}

/**
 * Builds (unless `skipBuild`), then writes `<outDir>/<id>-<version>.plugpkg`. Entries are sorted,
 * with fixed times and modes, so the same files always give the same bytes (Ed25519 signing is
 * deterministic too).
 *
 * @throws CliError `NO_MANIFEST`, `PACK_REFUSED` (with the reason), `BUILD_FAILED`, `INVALID_KEY`.
 */
export async function packPlugin(options: PackOptions): Promise<PackResult> {
  const source = await readManifestSource(options.root);
  let build: PackResult['build'] = 'skipped';
  if (options.skipBuild !== true) {
    const plan = await planBuild(options.root, { layers: Array.isArray(source.value.layers) ? (source.value.layers as string[]) : [] });
    build = plan.kind;
    if (plan.kind !== 'none') {
      options.onBuild?.(plan);
      await runBuild(options.root, plan);
    }
  }
  const outDir = options.outDir ?? join(options.root, 'release');
  const outInside = relative(options.root, outDir).split('\\').join('/');
  const skipFolders = outInside !== '' && !outInside.startsWith('..') && !isAbsolute(outInside) ? [outInside] : [];
  if (outInside === '') refuse('--out-dir is the project folder itself; the package would be packed into its next version. Pick a folder such as release/.');
  const collected = await collectProjectFiles(options.root, { skipFolders });
  const paths = collected.files.map((file) => file.path);
  checkPaths(paths);

  const manifestBytes =
    options.version === undefined ? source.bytes : utf8Encode(`${JSON.stringify({ ...source.value, version: options.version }, null, 2)}\n`);
  const checked = parseManifest(manifestBytes, { files: new Set(paths) });
  if (!checked.ok) {
    refuse(
      `manifest.json would be refused by launchers: ${checked.problems.map(formatManifestProblem).join('; ')}. Fix it (pluginctl lint shows every problem).`,
    );
  }
  const { id, version } = checked.manifest;

  const entries: ZipEntry[] = [];
  for (const file of collected.files) {
    entries.push({ name: file.path, data: file.path === 'manifest.json' ? manifestBytes : await readFile(file.absolute) });
  }
  let signerKeyId: string | null = null;
  if (options.key !== undefined) {
    const key = readKey(await keyTextOf(options.key));
    const signature = signPackageWithNodeCrypto({
      manifestBytes,
      files: entries.map((entry) => ({ path: entry.name, sha256: sha256Hex(entry.data) })),
      privateKey: key.keyObject,
    });
    signerKeyId = signature.signerKeyId;
    entries.push({ name: SIGNATURE_FILE_NAME, data: serializeSignatureFile(signature) });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  const archive = writeZip(entries);
  await mkdir(outDir, { recursive: true });
  const path = join(outDir, `${id}-${version}.plugpkg`);
  // Written beside and renamed, so an interrupted pack never leaves half a package under the final name.
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, archive);
  await rename(temporary, path);
  return {
    path,
    id,
    version,
    files: entries.length,
    bytes: archive.length,
    sha256: createHash('sha256').update(archive).digest('hex'),
    build,
    signerKeyId,
    skippedLinks: collected.skippedLinks,
  };
}
