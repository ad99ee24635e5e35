// Build step of the debug harness page (run by rollup.config.mjs, and by the harness tests): bundles
// the page's browser code (client/main.ts with the launcher elements and the plugin host) the way
// the demo launcher's UI is bundled (browser, ES2022, minified, one file), and returns the source of
// the module `virtual:harness-client`, which holds that bundle, the page's stylesheet and the guest
// runtime as strings. pluginctl stays one file without runtime dependencies (decisions 10): the
// harness server answers with these strings.
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import commonjs from '@rollup/plugin-commonjs';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import { rollup } from 'rollup';
import esbuild from 'rollup-plugin-esbuild';

/** The id pluginctl's sources import the page's files from. */
export const HARNESS_CLIENT_MODULE = 'virtual:harness-client';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '../../..');
const CLIENT = join(HERE, 'client');
/** Built by an earlier entry of rollup.config.mjs (the demo launcher's UI reads it the same way). */
const GUEST_RUNTIME = join(ROOT, 'host-sdk/dist/guest-runtime.iife.js');

/**
 * Bundles the harness page.
 *
 * @returns `code`: the source of {@link HARNESS_CLIENT_MODULE} (named exports `script`, `stylesheet`
 *   and `guestRuntime`, each a string); `watchFiles`: every file the bundle was made of.
 */
export async function buildHarnessClientModule() {
  const bundle = await rollup({
    input: join(CLIENT, 'main.ts'),
    logLevel: 'silent',
    plugins: [
      nodeResolve({ exportConditions: ['@plughost/source', 'browser'], browser: true }),
      commonjs(),
      // ES2022: Lit's standard decorators must be lowered (shared/toolchain-facts.md, section 4).
      esbuild({ target: 'es2022', minify: true, tsconfig: join(CLIENT, 'tsconfig.json') }),
    ],
  });
  let script;
  try {
    // One file: the host's on-demand chunks (bridge method groups, the document builder) are inlined.
    const { output } = await bundle.generate({ format: 'es', inlineDynamicImports: true });
    script = output[0].code;
  } finally {
    await bundle.close();
  }
  const stylesheet = await readFile(join(CLIENT, 'harness.css'), 'utf8');
  const guestRuntime = await readFile(GUEST_RUNTIME, 'utf8').catch((error) => {
    throw new Error(`${relative(ROOT, GUEST_RUNTIME)} is missing (${error.message}): build the guest runtime first (npm run build).`);
  });
  const code = [
    `export const script = ${JSON.stringify(script)};`,
    `export const stylesheet = ${JSON.stringify(stylesheet)};`,
    `export const guestRuntime = ${JSON.stringify(guestRuntime)};`,
    '',
  ].join('\n');
  return { code, watchFiles: [...bundle.watchFiles, join(CLIENT, 'harness.css'), GUEST_RUNTIME] };
}
