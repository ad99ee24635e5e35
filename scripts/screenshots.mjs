#!/usr/bin/env node
// `node scripts/screenshots.mjs`: takes the documentation's screenshots again. The end-to-end tests
// of the demo launcher drive the built launcher in Chromium and save what they show; with
// PLUGHOST_SCREENSHOTS=docs they also copy the PNGs into docs/: the launcher's pages to
// docs/screenshots/ (demo-launcher-ui; demo-launcher-screens at 1280 and 820 px, <page>-<width>.png), the update flow and the Settings page to docs/images/
// (demo-launcher-updates, which also starts two registry processes), and the debug harness with a
// build error to docs/images/ (harness-journey, which installs the react template's dependencies).
// Look at the PNGs before committing them. Arguments are passed to vitest (e.g. one of the files).
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const FILES = [
  'tests/e2e/demo-launcher-ui.test.ts',
  'tests/e2e/demo-launcher-screens.test.ts',
  'tests/e2e/demo-launcher-updates.test.ts',
  'tests/e2e/harness-journey.test.ts',
];
const chosen = process.argv.slice(2);

// vitest builds first when the build is missing or stale (tests/support/global-setup.ts).
const result = spawnSync(process.execPath, [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', ...(chosen.length > 0 ? chosen : FILES)], {
  cwd: ROOT,
  stdio: 'inherit',
  env: { ...process.env, PLUGHOST_SCREENSHOTS: 'docs' },
});
process.exit(result.status ?? 1);
