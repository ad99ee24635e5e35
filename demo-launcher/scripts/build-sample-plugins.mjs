/**
 * Packages and signs the demo launcher's sample plugins.
 *
 *   node demo-launcher/scripts/build-sample-plugins.mjs
 *
 * Every folder of `demo-launcher/sample-plugins/` (a `manifest.json` plus its files) becomes
 * `demo-launcher/dist/sample-plugins/<id>-<version>.plugpkg`, signed through the demo trust chain,
 * and `index.json` lists the packages in install order (dependencies first):
 * `[{id, name, version, file}]`. The output folder is rewritten from scratch on every run, and
 * the same sources always give the same bytes (fixed zip timestamps, deterministic Ed25519).
 *
 * DEMO KEYS ONLY. The developer key is derived from a public text and the root key is the
 * repository's DEVELOPMENT-ONLY root key: anyone can sign packages with them. A launcher or store
 * that trusts either is open to any package.
 *
 * Runs after the TypeScript build: it uses the built host SDK in `host-sdk/dist`.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  ed25519PublicKeyFromSeed,
  issueCertificate,
  parseManifest,
  serializeCertificate,
  serializeSignatureFile,
  sha256Hex,
  signPackage,
} from '../../host-sdk/dist/core/index.js';
import { writeZip } from '../../backend-kit/dist/index.js';

const launcherDir = dirname(dirname(fileURLToPath(import.meta.url)));

/** Where the sources are and where the packages go by default. */
export const DEFAULT_SOURCE_DIR = join(launcherDir, 'sample-plugins');
export const DEFAULT_OUT_DIR = join(launcherDir, 'dist', 'sample-plugins');
/** The demo root key (public in the repository: development only). */
export const DEMO_ROOT_KEY_FILE = join(launcherDir, 'keys', 'DEVELOPMENT-ONLY-root-key.json');
/** The store account the demo certificate names. */
export const DEMO_DEVELOPER_ID = 'plughost-samples';
/** The demo developer key's seed is the SHA-256 of this public text: a demo-only key. */
export const DEMO_DEVELOPER_SEED_TEXT = 'plughost-demo-developer';

const SIGNATURE_FILES = new Set(['signature.json', 'signature.cert.json']);

/** The 32-byte seed of the demo developer key. */
export function demoDeveloperSeed() {
  return new Uint8Array(createHash('sha256').update(DEMO_DEVELOPER_SEED_TEXT, 'utf8').digest());
}

/** Reads the demo root key file; checks that its seed and public key belong together. */
async function readRootKey(file) {
  const key = JSON.parse(await readFile(file, 'utf8'));
  const seed = new Uint8Array(Buffer.from(key.privateKeySeed, 'base64'));
  const publicKey = Buffer.from(ed25519PublicKeyFromSeed(seed)).toString('base64');
  if (seed.length !== 32 || publicKey !== key.publicKey) {
    throw new Error(`${file}: privateKeySeed is not the seed of publicKey`);
  }
  return { seed, publicKey };
}

/** Every file below `dir`, as sorted forward-slash paths (hidden files skipped, links refused). */
async function listFiles(dir, prefix = '') {
  const paths = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const path = `${prefix}${entry.name}`;
    if (entry.isDirectory()) paths.push(...(await listFiles(join(dir, entry.name), `${path}/`)));
    else if (entry.isFile()) paths.push(path);
    else throw new Error(`${join(dir, entry.name)} is neither a file nor a folder`);
  }
  return paths.sort();
}

/** The folder of files every sample gets (a common stylesheet), unless it has its own of that name. */
const SHARED_FOLDER = '_shared';

/** Reads, validates and signs one plugin folder (plus the shared files); returns its manifest and archive entries. */
async function readPlugin(folder, developerSeed, certificateBytes, shared) {
  const own = await listFiles(folder);
  const paths = [...own, ...[...shared.keys()].filter((path) => !own.includes(path))].sort();
  if (!paths.includes('manifest.json')) throw new Error(`${folder} has no manifest.json`);
  const signatureFile = paths.find((path) => SIGNATURE_FILES.has(path));
  if (signatureFile) throw new Error(`${folder} must not contain ${signatureFile}: packages are signed here`);

  const files = new Map();
  for (const path of paths) files.set(path, own.includes(path) ? new Uint8Array(await readFile(join(folder, ...path.split('/')))) : shared.get(path));
  const manifestBytes = files.get('manifest.json');
  const result = parseManifest(manifestBytes, { files: new Set(paths) });
  if (!result.ok) {
    throw new Error(`${folder}/manifest.json is invalid:\n${result.problems.map((p) => `  ${p.path || '(manifest)'}: ${p.message}`).join('\n')}`);
  }

  const contents = paths.filter((path) => path !== 'manifest.json');
  const signature = signPackage({
    manifestBytes,
    files: contents.map((path) => ({ path, sha256: sha256Hex(files.get(path)) })),
    seed: developerSeed,
  });
  const entries = [
    { name: 'manifest.json', data: manifestBytes },
    ...contents.map((path) => ({ name: path, data: files.get(path) })),
    { name: 'signature.json', data: serializeSignatureFile(signature) },
    { name: 'signature.cert.json', data: certificateBytes },
  ];
  return { manifest: result.manifest, warnings: result.warnings, entries };
}

/**
 * Install order: a plugin after the sample plugins it depends on; otherwise by id. A required
 * dependency that is not a sample, or a cycle, is an error (the launcher would skip the plugin).
 */
function installOrder(plugins) {
  const byId = new Map(plugins.map((plugin) => [plugin.manifest.id, plugin]));
  if (byId.size !== plugins.length) throw new Error('Two sample plugins have the same id');
  const dependencies = (plugin) =>
    Object.entries(plugin.manifest.dependencies ?? {}).flatMap(([id, spec]) => {
      const optional = typeof spec === 'object' && spec !== null && spec.optional === true;
      if (!byId.has(id) && !optional) throw new Error(`${plugin.manifest.id} requires ${id}, which is not a sample plugin`);
      return byId.has(id) ? [id] : [];
    });
  const ordered = [];
  const placed = new Set();
  let pending = [...plugins].sort((a, b) => (a.manifest.id < b.manifest.id ? -1 : 1));
  while (pending.length > 0) {
    const ready = pending.find((plugin) => dependencies(plugin).every((id) => placed.has(id)));
    if (!ready) throw new Error(`Dependency cycle among ${pending.map((plugin) => plugin.manifest.id).join(', ')}`);
    ordered.push(ready);
    placed.add(ready.manifest.id);
    pending = pending.filter((plugin) => plugin !== ready);
  }
  return ordered;
}

/**
 * Builds every sample plugin package.
 *
 * @param {{sourceDir?: string, outDir?: string, rootKeyFile?: string}} [options] `sourceDir` holds
 *   one folder per plugin (default `demo-launcher/sample-plugins`); `outDir` is deleted and
 *   rewritten (default `demo-launcher/dist/sample-plugins`); `rootKeyFile` is the root key that
 *   issues the developer certificate (default the demo root key).
 * @returns {Promise<{outDir: string, rootPublicKey: string, plugins: {id: string, name: string, version: string, file: string, path: string, warnings: object[]}[]}>}
 *   The packages in install order, as in `index.json` plus the absolute `path` and the manifest warnings.
 */
export async function buildSamplePlugins({ sourceDir = DEFAULT_SOURCE_DIR, outDir = DEFAULT_OUT_DIR, rootKeyFile = DEMO_ROOT_KEY_FILE } = {}) {
  const source = await realpath(sourceDir);
  const out = resolve(outDir);
  const outReal = await realpath(out).catch(() => out);
  if (source === outReal || `${source}${sep}`.startsWith(`${outReal}${sep}`) || `${outReal}${sep}`.startsWith(`${source}${sep}`)) {
    throw new Error(`The output folder ${out} must be outside the sources ${source} (it is deleted first)`);
  }

  const root = await readRootKey(rootKeyFile);
  const developerSeed = demoDeveloperSeed();
  const certificate = issueCertificate({
    rootSeed: root.seed,
    publicKey: ed25519PublicKeyFromSeed(developerSeed),
    developerId: DEMO_DEVELOPER_ID,
  });
  const certificateBytes = serializeCertificate(certificate);

  const folders = [];
  for (const entry of await readdir(source, { withFileTypes: true })) {
    if (entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== SHARED_FOLDER) folders.push(join(source, entry.name));
  }
  folders.sort();
  const shared = new Map();
  const sharedFolder = join(source, SHARED_FOLDER);
  for (const path of await listFiles(sharedFolder).catch(() => [])) shared.set(path, new Uint8Array(await readFile(join(sharedFolder, ...path.split('/')))));
  const plugins = [];
  for (const folder of folders) plugins.push(await readPlugin(folder, developerSeed, certificateBytes, shared));

  await rm(out, { recursive: true, force: true });
  await mkdir(out, { recursive: true });
  const built = [];
  for (const { manifest, warnings, entries } of installOrder(plugins)) {
    const file = `${manifest.id}-${manifest.version}.plugpkg`;
    await writeFile(join(out, file), writeZip(entries));
    built.push({ id: manifest.id, name: manifest.name, version: manifest.version, file, path: join(out, file), warnings });
  }
  const index = built.map(({ id, name, version, file }) => ({ id, name, version, file }));
  await writeFile(join(out, 'index.json'), `${JSON.stringify(index, null, 2)}\n`);
  return { outDir: out, rootPublicKey: root.publicKey, plugins: built };
}

async function isMainModule() {
  if (!process.argv[1]) return false;
  const entry = await realpath(process.argv[1]).catch(() => resolve(process.argv[1]));
  return import.meta.url === pathToFileURL(entry).href;
}

if (await isMainModule()) {
  try {
    const { outDir, plugins } = await buildSamplePlugins();
    for (const plugin of plugins) {
      console.log(`  ${plugin.file}`);
      for (const warning of plugin.warnings) console.warn(`    warning: ${warning.path}: ${warning.message}`);
    }
    console.log(`${plugins.length} sample plugins signed with the DEMO keys into ${relative(process.cwd(), outDir) || '.'}`);
  } catch (error) {
    console.error(`build-sample-plugins: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
