// Builds every bundle of the repository. Type declarations come from `tsc -b`; rollup writes the
// JavaScript next to them. Workspaces import each other's sources through the
// `@plughost/source` export condition, so a bundle never depends on another bundle being built.
import { builtinModules } from 'node:module';
import { chmod, readFile } from 'node:fs/promises';
import commonjs from '@rollup/plugin-commonjs';
import json from '@rollup/plugin-json';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import esbuild from 'rollup-plugin-esbuild';
import { HARNESS_CLIENT_MODULE, buildHarnessClientModule } from './pluginctl/src/harness/build-client.mjs';

const SOURCE = '@plughost/source';
const pluginctlVersion = JSON.parse(await readFile('pluginctl/package.json', 'utf8')).version;
const nodeBuiltins = [/^node:/, ...builtinModules];
const isBareImport = (id) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0');
/** Keeps third-party packages external, but inlines our own workspaces. */
const externalDependencies = (id) => isBareImport(id) && !id.startsWith('@plughost/');

/** Copies plain files (stylesheets) next to a bundle. */
function copyAssets(files) {
  return {
    name: 'copy-assets',
    async generateBundle() {
      for (const [fileName, path] of Object.entries(files)) {
        this.emitFile({ type: 'asset', fileName, source: await readFile(path) });
      }
    },
  };
}

/**
 * Resolves `virtual:harness-client` to the debug harness page's browser bundle and the guest
 * runtime (built in memory from `guestRuntimeEntry`, the same build as its own entry), built first by
 * `build-client.mjs` (browser, ES2022, minified) and embedded as strings: pluginctl stays one file
 * with no runtime dependencies (decisions 10). The page's sources are watched with the CLI's.
 */
function inlineHarnessClient(guestRuntimeEntry) {
  const resolved = `\0${HARNESS_CLIENT_MODULE}`;
  return {
    name: 'inline-harness-client',
    resolveId: (source) => (source === HARNESS_CLIENT_MODULE ? resolved : null),
    async load(id) {
      if (id !== resolved) return null;
      const { code, watchFiles } = await buildHarnessClientModule({ guestRuntime: guestRuntimeEntry });
      for (const file of watchFiles) this.addWatchFile(file);
      return code;
    },
  };
}

function makeExecutable() {
  return {
    name: 'make-executable',
    async writeBundle(options) {
      if (options.file) await chmod(options.file, 0o755);
    },
  };
}

/**
 * ES-module library output that mirrors the source tree, so subpath exports map 1:1. With
 * `workspacesExternal`, our own workspaces stay imports of their packages (declared dependencies)
 * instead of being inlined.
 */
function library(name, input, { browser, workspacesExternal = false }) {
  return {
    input,
    external: workspacesExternal ? isBareImport : externalDependencies,
    plugins: [
      nodeResolve({ exportConditions: [SOURCE, browser ? 'browser' : 'node'], preferBuiltins: !browser }),
      esbuild({ target: browser ? 'es2022' : 'node20', tsconfig: `${name}/tsconfig.json` }),
    ],
    output: {
      dir: `${name}/dist`,
      format: 'es',
      preserveModules: true,
      preserveModulesRoot: `${name}/src`,
      sourcemap: true,
    },
  };
}

// The guest runtime is injected into every plugin frame as one classic script. The debug harness
// page embeds the same build (see inlineHarnessClient).
const guestRuntime = {
  input: 'host-sdk/src/guest/index.ts',
  plugins: [
    nodeResolve({ exportConditions: [SOURCE, 'browser'], browser: true }),
    commonjs(),
    esbuild({ target: 'es2022', minify: true, tsconfig: 'host-sdk/tsconfig.json' }),
  ],
  output: { file: 'host-sdk/dist/guest-runtime.iife.js', format: 'iife', name: 'PluginGuestRuntime' },
};

export default [
  library(
    'host-sdk',
    {
      index: 'host-sdk/src/index.ts',
      'core/index': 'host-sdk/src/core/index.ts',
      'node/index': 'host-sdk/src/node/index.ts',
    },
    { browser: true },
  ),
  // The backend kit, the registry and the web components import host-sdk (and each other) as
  // packages, declared dependencies, instead of inlining them: a vendor's app then holds one copy of
  // host-sdk, so `instanceof PluginHostError` holds across packages (decisions section 9).
  library('backend-kit', { index: 'backend-kit/src/index.ts' }, { browser: false, workspacesExternal: true }),
  // The backend kit's bundle is the one copy of the Koa building blocks it shares with the registry,
  // and better-sqlite3 (native) stays external.
  library('registry', { index: 'registry/src/index.ts' }, { browser: false, workspacesExternal: true }),
  library(
    'web-components',
    {
      index: 'web-components/src/index.ts',
      define: 'web-components/src/define.ts',
    },
    { browser: true, workspacesExternal: true },
  ),

  guestRuntime,

  // pluginctl: one executable file with every dependency inlined (no runtime dependencies), the
  // debug harness page included.
  {
    input: 'pluginctl/src/cli.ts',
    external: nodeBuiltins,
    plugins: [
      inlineHarnessClient(guestRuntime),
      nodeResolve({ exportConditions: [SOURCE, 'node'], preferBuiltins: true }),
      commonjs(),
      json(),
      esbuild({
        target: 'node20',
        tsconfig: 'pluginctl/tsconfig.json',
        define: { __PLUGINCTL_VERSION__: JSON.stringify(pluginctlVersion) },
      }),
      makeExecutable(),
    ],
    output: { file: 'pluginctl/dist/pluginctl.mjs', format: 'es', inlineDynamicImports: true },
  },

  // Demo launcher: the server (third-party packages stay in node_modules) and the UI bundle.
  {
    input: 'demo-launcher/src/server/main.ts',
    external: (id) => nodeBuiltins.some((b) => (b instanceof RegExp ? b.test(id) : b === id)) || externalDependencies(id),
    plugins: [
      nodeResolve({ exportConditions: [SOURCE, 'node'], preferBuiltins: true }),
      json(),
      esbuild({ target: 'node20', tsconfig: 'demo-launcher/src/server/tsconfig.json' }),
    ],
    output: { file: 'demo-launcher/dist/server.mjs', format: 'es', sourcemap: true },
  },
  {
    input: 'demo-launcher/src/ui/main.ts',
    plugins: [
      nodeResolve({ exportConditions: [SOURCE, 'browser'], browser: true }),
      commonjs(),
      esbuild({ target: 'es2022', minify: true, tsconfig: 'web-components/tsconfig.json' }),
      // The guest runtime is built by an earlier entry of this config; the page loads it for the host.
      copyAssets({
        'launcher.css': 'demo-launcher/src/ui/launcher.css',
        'icons.css': 'demo-launcher/src/ui/icons.css',
        'guest-runtime.js': 'host-sdk/dist/guest-runtime.iife.js',
      }),
    ],
    // One file: the demo's server serves a fixed list of UI files, so the host's on-demand chunks
    // (bridge method groups, the inline guest runtime) are inlined here; vendors' bundlers split them.
    output: { file: 'demo-launcher/dist/ui/app.js', format: 'es', sourcemap: true, inlineDynamicImports: true },
  },
];
