#!/usr/bin/env node
// `npm run coverage`: line and branch coverage of the node suites (vitest with V8 coverage) and of
// the browser suites (@web/test-runner --coverage in Chromium: its native V8 instrumentation works
// in Chromium only), reported per package. The full reports go to coverage/node and
// coverage/browser (lcov and json-summary); the per-package table is printed and written to
// coverage/summary.md. Not part of `npm test`: coverage slows both runners down.
//
// What it cannot see: code run in other processes (the built demo launcher the e2e tests start,
// worker threads) and code run in plugin frames (the guest runtime is served built, to sandboxed
// frames in their own process), so those parts are undercounted.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { buildNeeded } from './build-state.mjs';

const PACKAGES = ['host-sdk', 'backend-kit', 'web-components', 'registry', 'pluginctl', 'demo-launcher'];
const SOURCES = PACKAGES.map((name) => `${name}/src/**`);
const root = process.cwd();

function run(label, args, env = process.env) {
  console.log(`coverage: ${label}`);
  const result = spawnSync(process.execPath, args, { stdio: 'inherit', env });
  // Failing tests still give coverage of what ran; say so, and fail at the end.
  if (result.status !== 0) console.error(`coverage: ${label} exited with ${result.status ?? result.signal}; its tests did not all pass`);
  return result.status === 0;
}

const reason = buildNeeded();
if (reason) {
  console.log(`coverage: building first (${reason})`);
  if (spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' }).status !== 0) process.exit(1);
}
rmSync('coverage', { recursive: true, force: true });

const nodeOk = run('node suites (vitest, V8)', [
  'node_modules/vitest/vitest.mjs',
  'run',
  'tests/unit',
  '--coverage.enabled',
  '--coverage.provider=v8',
  '--coverage.reportsDirectory=coverage/node',
  '--coverage.reporter=json-summary',
  '--coverage.reporter=lcov',
  '--coverage.reporter=text-summary',
  ...SOURCES.map((pattern) => `--coverage.include=${pattern}`),
]);
// web-test-runner.config.mjs sets the browser report's folder and formats (coverageConfig).
const browserOk = run('browser suites (@web/test-runner --coverage, Chromium)', ['node_modules/@web/test-runner/dist/bin.js', '--coverage'], {
  ...process.env,
  PLUGHOST_ENGINES: 'chromium',
});

/** Lines and branches per package from an istanbul json-summary (keys are absolute file paths). */
function perPackage(path) {
  let summary;
  try {
    summary = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
  const totals = {};
  for (const [file, metrics] of Object.entries(summary)) {
    if (file === 'total') continue;
    const name = relative(root, file).split(sep)[0];
    const entry = totals[name] ?? { lines: [0, 0], branches: [0, 0] };
    totals[name] = entry;
    entry.lines[0] += metrics.lines.covered;
    entry.lines[1] += metrics.lines.total;
    entry.branches[0] += metrics.branches.covered;
    entry.branches[1] += metrics.branches.total;
  }
  return totals;
}

const percent = ([covered, total]) => (total === 0 ? 'n/a' : `${((100 * covered) / total).toFixed(1)} %`);
const cell = (entry, metric) => (entry ? `${percent(entry[metric])} (${entry[metric][0]}/${entry[metric][1]})` : '–');

const node = perPackage(join('coverage', 'node', 'coverage-summary.json'));
const browser = perPackage(join('coverage', 'browser', 'coverage-summary.json'));
const date = new Date().toISOString().slice(0, 10);
const lines = [
  `Coverage on ${date} (\`npm run coverage\`; browser: Chromium)`,
  '',
  '| Package | Node lines | Node branches | Browser lines | Browser branches |',
  '|---|---|---|---|---|',
  ...PACKAGES.filter((name) => node?.[name] || browser?.[name]).map(
    (name) =>
      `| ${name} | ${cell(node?.[name], 'lines')} | ${cell(node?.[name], 'branches')} | ${cell(browser?.[name], 'lines')} | ${cell(browser?.[name], 'branches')} |`,
  ),
];
if (!node) lines.push('', 'No node coverage summary was written (coverage/node/coverage-summary.json).');
if (!browser) lines.push('', 'No browser coverage summary was written (coverage/browser/coverage-summary.json).');
mkdirSync('coverage', { recursive: true });
writeFileSync(join('coverage', 'summary.md'), `${lines.join('\n')}\n`);
console.log(`\n${lines.join('\n')}\n\ncoverage: written to coverage/summary.md, coverage/node and coverage/browser`);
process.exit(nodeOk && browserOk && node && browser ? 0 : 1);
