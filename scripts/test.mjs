#!/usr/bin/env node
// `npm test`: finds the browser engines (installing Chromium, Firefox ESR and WebKitGTK on Debian
// as root when they are missing) and the PostgreSQL server of the run (scripts/postgres-server.mjs:
// REGISTRY_TEST_DATABASE_URL, else Debian's postgresql on Debian as root, else PGlite), builds what
// is stale, runs the node suites (vitest) and the browser suites (@web/test-runner, in every
// engine), and prints one closing line with the totals and what was skipped or substituted.
// It first runs Biome (`biome check`: lint and format check, configured in biome.jsonc) and stops
// when it finds problems.
// `npm test -- --engine webkit` runs the browser suites in one engine (repeatable).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildNeeded } from './build-state.mjs';
import { ensureEngines, requestedEngines } from './browser-engines.mjs';
import { ensurePostgres } from './postgres-server.mjs';

const started = Date.now();

// Lint and format check first: it takes a second, and a failure stops the run before the suites.
const lint = spawnSync(process.execPath, ['node_modules/@biomejs/biome/bin/biome', 'check', '--error-on-warnings', '.'], { stdio: 'inherit' });
if (lint.status !== 0) {
  console.error(
    'test: LINT_FAILED: biome check found problems (above); run `npm run format` to apply the safe fixes and formatting, then fix the rest by hand.',
  );
  process.exit(lint.status ?? 1);
}
let engines;
let skippedEngines;
try {
  const { found, skipped } = ensureEngines(requestedEngines(process.env, process.argv.slice(2)));
  engines = Object.keys(found);
  skippedEngines = skipped;
  for (const { engine, reason } of skipped) console.error(`test: ENGINE_SKIPPED: the browser suites do not run in ${engine}: ${reason}`);
} catch (error) {
  console.error(`test: ENGINE_MISSING: ${error.message}`);
  process.exit(1);
}
// PostgreSQL as the engines: an external server is checked now, Debian's installed now; vitest's
// global setup starts the server when a test first asks for a database.
let postgres;
try {
  postgres = await ensurePostgres();
  if (postgres.kind === 'pglite') console.error(`test: POSTGRES_SUBSTITUTED: ${postgres.notice}`);
} catch (error) {
  console.error(`test: ${error.code ?? 'POSTGRES_FAILED'}: ${error.message}`);
  process.exit(1);
}

const reason = buildNeeded();
if (reason) {
  console.error(`test: building first (${reason})`);
  const built = spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
} else {
  // The build is current, but tests are also type-checked.
  const checked = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-b'], { stdio: 'inherit' });
  if (checked.status !== 0) {
    console.error('test: type check failed (tsc -b); fix the errors above.');
    process.exit(checked.status ?? 1);
  }
}

// Bundle size budgets (scripts/size.mjs): a failure fails the run, after the suites have run.
const size = spawnSync(process.execPath, ['scripts/size.mjs'], { stdio: 'inherit' });

const work = mkdtempSync(join(tmpdir(), 'plughost-test-'));
// The runners and the e2e tests read which engines this run has.
const env = { ...process.env, PLUGHOST_ENGINES: engines.join(',') };

const vitestReport = join(work, 'vitest.json');
const vitest = spawnSync(
  process.execPath,
  ['node_modules/vitest/vitest.mjs', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport}`],
  { stdio: 'inherit', env },
);

const wtrCounts = join(work, 'wtr.json');
const wtr =
  engines.length > 0
    ? spawnSync(process.execPath, ['node_modules/@web/test-runner/dist/bin.js'], { stdio: 'inherit', env: { ...env, WTR_COUNTS_FILE: wtrCounts } })
    : { status: 0 };

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}

const node = readJson(vitestReport);
const browser = readJson(wtrCounts);
rmSync(work, { recursive: true, force: true });

const passed = (node?.numPassedTests ?? 0) + (browser?.passed ?? 0);
const skipped = (node?.numPendingTests ?? 0) + (node?.numTodoTests ?? 0) + (browser?.skipped ?? 0);
let failed = (node?.numFailedTests ?? 0) + (browser?.failed ?? 0) + (browser?.sessionsFailed ?? 0);
// A runner that crashed or failed to load a file counts as at least one failure.
if (vitest.status !== 0 && failed === 0) failed = 1;
if (wtr.status !== 0 && failed === 0) failed = 1;

// Decisions 11: the closing line names every part of the run that was skipped or stood in for.
const notRun = [
  ...(skippedEngines.length > 0 ? [`engines skipped: ${skippedEngines.map(({ engine, reason }) => `${engine} (${reason})`).join(', ')}`] : []),
  ...(postgres.kind === 'pglite' ? [`substituted: PostgreSQL: PGlite (${postgres.reason})`] : []),
];
console.log(
  `\nnode: ${node?.numPassedTests ?? 0} passed, ${node?.numFailedTests ?? 0} failed; browser (${engines.join(', ') || 'no engine'}): ${browser?.passed ?? 0} passed, ${browser?.failed ?? 0} failed; ${((Date.now() - started) / 1000).toFixed(0)} s`,
);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}${notRun.map((part) => `; ${part}`).join('')}`);
if (size.status !== 0) console.log('size: a bundle is over its budget (see BUDGET_EXCEEDED above); `npm run size -- --verbose` lists its inputs.');
process.exit(failed > 0 || vitest.status !== 0 || wtr.status !== 0 || size.status !== 0 ? 1 : 0);
