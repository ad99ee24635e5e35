// The install path against Info-ZIP's `unzip -q` on the same signed package of about 50 MB and
// 2,000 files, in the same run: the measurement the choice of zip reader rests on (issue 13).
// Run with `npm run bench`; these are measurements, never pass/fail tests. Needs `unzip` on PATH.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, bench, describe } from 'vitest';
import { openPluginPackage } from '@plughost/backend-kit';
import { testKeys, writePluginPackage } from '../support/plugin-package.js';

const run = promisify(execFile);

const TEXT_FILES = 1_000;
const TEXT_FILE_BYTES = 48 * 1024;
const BINARY_FILES = 999;
const BINARY_FILE_BYTES = 37 * 1024;

/** A small seeded generator (xorshift32), so every run measures the same bytes. */
function generator(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return state >>> 0;
  };
}

const WORDS = [
  'export',
  'const',
  'function',
  'return',
  'value',
  'plugin',
  'launcher',
  'settings',
  'await',
  'import',
  'from',
  'if',
  'else',
  'null',
  'true',
  'false',
  'index',
  'render',
  'state',
  'config',
];

/** Source-like text: compresses about as well as minified JavaScript, not as well as zeros. */
function textFile(next: () => number, bytes: number): string {
  const parts: string[] = [];
  let length = 0;
  while (length < bytes) {
    const word = `${WORDS[next() % WORDS.length]}${next() % 1000} `;
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

const folder = mkdtempSync(join(tmpdir(), 'bench-install-'));
const work = join(folder, 'work');
mkdirSync(work);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const keys = testKeys();
const next = generator(0x13);
const files: Record<string, string | Uint8Array> = { 'dist/index.html': '<!doctype html><title>Bench</title>' };
for (let index = 0; index < TEXT_FILES; index++) files[`dist/text/module-${index}.js`] = textFile(next, TEXT_FILE_BYTES);
for (let index = 0; index < BINARY_FILES; index++) files[`dist/assets/blob-${index}.bin`] = binaryFile(next, BINARY_FILE_BYTES);

const packagePath = join(folder, 'large.plugpkg');
const generationStart = performance.now();
await writePluginPackage(packagePath, { keys, files });
const fileCount = Object.keys(files).length + 3; // manifest.json and the two signature files
console.log(
  `install-vs-unzip: ${fileCount} files, ${(statSync(packagePath).size / 1e6).toFixed(1)} MB package, generated in ${Math.round(performance.now() - generationStart)} ms`,
);

const trust = { rootPublicKey: keys.rootPublicKey };
const options = { time: 0, iterations: 8, warmupTime: 0, warmupIterations: 1 };

describe('installing a signed 50 MB, 2,000-file package', () => {
  bench(
    'openPluginPackage (signature required), then dispose',
    async () => {
      const opened = await openPluginPackage(packagePath, { workDirectory: work, signaturePolicy: 'required', trust });
      await opened.dispose();
    },
    options,
  );
  bench(
    'unzip -q -o (baseline), then rm',
    async () => {
      const target = join(work, 'unzip');
      await run('unzip', ['-q', '-o', packagePath, '-d', target]);
      await rm(target, { recursive: true, force: true });
    },
    options,
  );
});
