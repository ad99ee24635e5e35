// Build step of the debug harness page (run by rollup.config.mjs, and by the harness tests): bundles
// the page's browser code (client/main.ts with the launcher elements and the plugin host) the way
// the demo launcher's UI is bundled (browser, ES2022, minified, one file), builds the guest runtime
// with its own entry of rollup.config.mjs, and returns the source of the module
// `virtual:harness-client`, which holds both and the page's stylesheet as strings. pluginctl stays
// one file without runtime dependencies (decisions 10): the harness server answers with these.
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import commonjs from '@rollup/plugin-commonjs';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import { rollup } from 'rollup';
import esbuild from 'rollup-plugin-esbuild';

/** The id pluginctl's sources import the page's files from. */
export const HARNESS_CLIENT_MODULE = 'virtual:harness-client';

const CLIENT = join(dirname(fileURLToPath(import.meta.url)), 'client');

/** Builds one entry in memory; returns its single output file's code and the files it was made of. */
async function buildInMemory(options, output) {
  const bundle = await rollup({ ...options, logLevel: 'silent' });
  try {
    const { output: files } = await bundle.generate(output);
    return { code: files[0].code, watchFiles: bundle.watchFiles };
  } finally {
    await bundle.close();
  }
}

/**
 * Bundles the harness page.
 *
 * @param {{ guestRuntime: import('rollup').RollupOptions & { output: import('rollup').OutputOptions } }} options
 *   `guestRuntime`: the guest runtime's entry of rollup.config.mjs (built here in memory, so the
 *   page embeds exactly what plugin frames of a launcher get).
 * @returns `code`: the source of {@link HARNESS_CLIENT_MODULE} (named exports `script`, `stylesheet`
 *   and `guestRuntime`, each a string); `watchFiles`: every file the bundle was made of.
 */
export async function buildHarnessClientModule(options) {
  const { output: guestOutput, ...guestInput } = options.guestRuntime;
  const { file: _file, ...guestFormat } = guestOutput;
  const [page, guest] = await Promise.all([
    buildInMemory(
      {
        input: join(CLIENT, 'main.ts'),
        plugins: [
          nodeResolve({ exportConditions: ['@plughost/source', 'browser'], browser: true }),
          commonjs(),
          // ES2022: Lit's standard decorators must be lowered (shared/toolchain-facts.md, section 4).
          esbuild({ target: 'es2022', minify: true, tsconfig: join(CLIENT, 'tsconfig.json') }),
        ],
      },
      // One file: the host's on-demand chunks (bridge method groups, the document builder) are inlined.
      { format: 'es', inlineDynamicImports: true },
    ),
    buildInMemory(guestInput, guestFormat),
  ]);
  const stylesheet = await readFile(join(CLIENT, 'harness.css'), 'utf8');
  const code = [
    `export const script = ${JSON.stringify(page.code)};`,
    `export const stylesheet = ${JSON.stringify(stylesheet)};`,
    `export const guestRuntime = ${JSON.stringify(guest.code)};`,
    '',
  ].join('\n');
  return { code, watchFiles: [...page.watchFiles, ...guest.watchFiles, join(CLIENT, 'harness.css')] };
}
