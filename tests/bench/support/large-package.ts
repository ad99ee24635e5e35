/**
 * The large plugin of the install and pack benchmarks (issues 13 and 18): a signed package of
 * about 50 MB and 2,000 files (1,000 source-like text files of 48 KB, 999 random binaries of
 * 37 KB, a page and the manifest), and the same files as a plugin project folder. The bytes come
 * from a seeded generator, so every run measures the same package.
 */
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { sampleManifest, testKeys, writePluginPackage, type TestKeys } from '../../support/plugin-package.js';

const TEXT_FILES = 1_000;
const TEXT_FILE_BYTES = 48 * 1024;
const BINARY_FILES = 999;
const BINARY_FILE_BYTES = 37 * 1024;

/** A small seeded generator (xorshift32). */
function generator(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return state >>> 0;
  };
}

const WORDS = ['export', 'const', 'function', 'return', 'value', 'plugin', 'launcher', 'settings', 'await', 'import'];
const MORE_WORDS = ['from', 'if', 'else', 'null', 'true', 'false', 'index', 'render', 'state', 'config'];
const VOCABULARY = [...WORDS, ...MORE_WORDS];

/** Source-like text: compresses about as well as minified JavaScript, not as well as zeros. */
function textFile(next: () => number, bytes: number): string {
  const parts: string[] = [];
  let length = 0;
  while (length < bytes) {
    const word = `${VOCABULARY[next() % VOCABULARY.length]}${next() % 1000} `;
    parts.push(word);
    length += word.length;
  }
  return parts.join('').slice(0, bytes);
}

function binaryFile(next: () => number, bytes: number): Uint8Array {
  const data = new Uint8Array(bytes);
  const words = new Uint32Array(data.buffer, 0, bytes >>> 2);
  for (let index = 0; index < words.length; index++) words[index] = next();
  return data;
}

/** The package's files besides `manifest.json` (and the signature files). */
function packageFiles(): Record<string, string | Uint8Array> {
  const next = generator(0x13);
  const files: Record<string, string | Uint8Array> = { 'dist/index.html': '<!doctype html><title>Bench</title>' };
  for (let index = 0; index < TEXT_FILES; index++) files[`dist/text/module-${index}.js`] = textFile(next, TEXT_FILE_BYTES);
  for (let index = 0; index < BINARY_FILES; index++) files[`dist/assets/blob-${index}.bin`] = binaryFile(next, BINARY_FILE_BYTES);
  return files;
}

/** The large package and project, in a temporary folder. */
export interface LargePackage {
  /** The signed `.plugpkg`. */
  readonly packagePath: string;
  /** The plugin project folder with the same files (no build: a static project). */
  readonly projectFolder: string;
  /** Entries in the package (the files, `manifest.json` and the two signature files). */
  readonly entries: number;
  readonly packageBytes: number;
  /** Bytes of the files uncompressed. */
  readonly contentBytes: number;
  readonly keys: TestKeys;
  /** The manifest's plugin id. */
  readonly pluginId: string;
  /** Removes the temporary folder. */
  remove(): Promise<void>;
}

/** Writes the large package (and, with `project`, the project folder) into a new temporary folder. */
export async function createLargePackage(options: { project?: boolean } = {}): Promise<LargePackage> {
  const folder = await mkdtemp(join(tmpdir(), 'bench-large-'));
  const keys = testKeys();
  const manifest = sampleManifest({ id: 'com.bench.large', name: 'Large bench plugin' });
  const files = packageFiles();
  const packagePath = join(folder, 'large.plugpkg');
  await writePluginPackage(packagePath, { keys, manifest, files });
  const projectFolder = join(folder, 'project');
  if (options.project === true) {
    await mkdir(projectFolder);
    await writeFile(join(projectFolder, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    for (const [path, data] of Object.entries(files)) {
      const target = join(projectFolder, path);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, data);
    }
  }
  const contentBytes = Object.values(files).reduce((sum, data) => sum + (typeof data === 'string' ? Buffer.byteLength(data) : data.length), 0);
  return {
    packagePath,
    projectFolder,
    entries: Object.keys(files).length + 3,
    packageBytes: (await stat(packagePath)).size,
    contentBytes,
    keys,
    pluginId: String(manifest.id),
    remove: () => rm(folder, { recursive: true, force: true }),
  };
}
