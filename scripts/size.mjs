#!/usr/bin/env node
// `npm run size` (and a step of `npm test`): the size budgets of what a launcher vendor ships.
// Each budget entry is bundled from the packages' public entry points with esbuild, as a vendor's
// bundler would (browser platform, ES2022, minified, tree-shaken by the packages' `sideEffects`),
// and measured gzipped. The sources are bundled through the `@plughost/source` export condition,
// so no build is needed first; the bundles equal the published dist files up to minification.
//
// The budgets are issue 13's: 30 KB for the host and the three core elements, 7 KB for the guest
// runtime.
//
// What loads at start is the entry chunk and the chunks it imports statically; code behind a dynamic
// `import()` is reported apart as "loaded on demand": the bridge method groups (on a group's first
// call), the frame document builder (with the guest runtime's source, when the first plugin shows),
// the dependency rules and semver range matcher (only when a plugin declares dependencies), the
// inline plugin runtime and mount (with the first inline plugin), the event-stream reader (with the
// network group). esbuild assigns whole files to chunks: a file that any chunk uses and that a
// module in use at start reaches through its imports or re-exports loads at start. So
// `@plughost/host-sdk` re-exports only what a launcher page needs of the core and none of the
// modules above (the document builder through `loadPluginDocumentBuilder`), and the host imports
// core files one by one, never core/index.ts; the rest of the core (package verification,
// manifest validation, the registry client) stays in `@plughost/host-sdk/core`.
//
// Sizes are in KB of 1,000 bytes (as size-limit and bundlephobia print them). Exit 1 when an entry
// is over its budget. PLUGHOST_SIZE_BUDGET_HOST_KB and PLUGHOST_SIZE_BUDGET_GUEST_KB override the
// budgets (the unit test uses them to prove the check fails). `--verbose` lists every input.
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** What a launcher page loads before any plugin runs: the host and the three core elements. */
const HOST_ENTRY = `
import { PluginHost } from '@plughost/host-sdk';
import { PluginFrame, PluginOverlay, PluginSettingsTab } from '@plughost/web-components';
customElements.define('plugin-frame', PluginFrame);
customElements.define('plugin-overlay', PluginOverlay);
customElements.define('plugin-settings-tab', PluginSettingsTab);
export { PluginHost };
`;

const BUDGETS = [
  {
    name: 'host+3 elements',
    env: 'PLUGHOST_SIZE_BUDGET_HOST_KB',
    kb: 30,
    options: { stdin: { contents: HOST_ENTRY, resolveDir: ROOT, loader: 'js', sourcefile: 'vendor-host-entry.js' }, format: 'esm' },
  },
  {
    // Built the way rollup builds host-sdk/dist/guest-runtime.iife.js: one classic script.
    name: 'guest runtime',
    env: 'PLUGHOST_SIZE_BUDGET_GUEST_KB',
    kb: 7,
    options: { entryPoints: ['host-sdk/src/guest/index.ts'], format: 'iife', globalName: 'PluginGuestRuntime' },
  },
];

/**
 * Bundles one entry and returns its gzipped size in bytes, with the inputs behind it. Chunks split
 * off by a dynamic `import()` load only when used, so they are measured apart (`lazy`).
 */
async function measure(options) {
  const result = await build({
    ...options,
    absWorkingDir: ROOT,
    bundle: true,
    minify: true,
    target: 'es2022',
    platform: 'browser',
    conditions: ['@plughost/source'],
    splitting: options.format === 'esm',
    outdir: 'size-check-out',
    write: false,
    metafile: true,
    logLevel: 'error',
  });
  const outputs = result.metafile.outputs;
  // With code splitting, dynamically imported modules are entry points of their own chunks too.
  const entryPoint = options.stdin?.sourcefile ?? options.entryPoints[0];
  const entry = Object.keys(outputs).find((path) => outputs[path].entryPoint === entryPoint);
  // The entry chunk and every chunk it imports statically load at start.
  const eager = new Set([entry]);
  for (const path of eager) {
    for (const imported of outputs[path].imports) if (imported.kind === 'import-statement') eager.add(imported.path);
  }
  const files = new Map(result.outputFiles.map((file) => [file.path.slice(ROOT.length), file.contents]));
  const gzipped = (paths) => paths.reduce((sum, path) => sum + gzipSync(files.get(path), { level: 9 }).length, 0);
  // A third-party package counts as one input: that is the unit a vendor can replace.
  const inputs = {};
  for (const path of eager) {
    for (const [input, { bytesInOutput }] of Object.entries(outputs[path].inputs)) {
      const name = input.replace(/^node_modules\/((?:@[^/]+\/)?[^/]+)\/.*$/, 'node_modules/$1');
      inputs[name] = (inputs[name] ?? 0) + bytesInOutput;
    }
  }
  const lazyPaths = Object.keys(outputs).filter((path) => !eager.has(path) && path.endsWith('.js'));
  return { bytes: gzipped([...eager]), lazy: gzipped(lazyPaths), inputs };
}

/** Reads a budget override in KB; a value that is not a positive number is a usage error. */
function budgetKb(budget, env) {
  const raw = env[budget.env];
  if (raw === undefined || raw === '') return budget.kb;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) {
    console.error(`size: ${budget.env} must be a positive number of KB (got "${raw}")`);
    process.exit(2);
  }
  return value;
}

const kb = (bytes) => (bytes / 1000).toFixed(1);
const verbose = process.argv.includes('--verbose');

const lines = [];
const over = [];
for (const budget of BUDGETS) {
  const limit = budgetKb(budget, process.env);
  const { bytes, lazy, inputs } = await measure(budget.options);
  const lazyNote = lazy > 0 ? ` (+${kb(lazy)} KB loaded on demand)` : '';
  lines.push(`${budget.name} ${kb(bytes)} KB / ${limit} KB${lazyNote}`);
  if (bytes > limit * 1000) over.push({ budget, bytes, limit, inputs });
  if (verbose) {
    console.log(`${budget.name}: every input (minified bytes)`);
    for (const [input, size] of Object.entries(inputs)
      .filter(([, size]) => size > 0)
      .sort((a, b) => b[1] - a[1]))
      console.log(`  ${String(size).padStart(7)} ${input}`);
  }
}

console.log(`size: ${lines.join('; ')}`);
for (const { budget, bytes, limit, inputs } of over) {
  const biggest = Object.entries(inputs)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([input, size]) => `${input} ${kb(size)} KB`);
  console.error(
    `size: BUDGET_EXCEEDED: ${budget.name} is ${kb(bytes)} KB min+gzip, over its ${limit} KB budget by ${kb(bytes - limit * 1000)} KB. Biggest inputs (minified): ${biggest.join(', ')}. Run \`npm run size -- --verbose\` for the full list.`,
  );
}
process.exit(over.length > 0 ? 1 : 0);
