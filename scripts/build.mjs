#!/usr/bin/env node
// `npm run build`: type declarations and type check (tsc -b), then every bundle (rollup).
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

function step(label, command, args, options = {}) {
  const started = Date.now();
  process.stderr.write(`build: ${label}...\n`);
  const result = spawnSync(command, args, { stdio: ['ignore', options.quiet ? 'ignore' : 'inherit', 'inherit'], ...(options.cwd ? { cwd: options.cwd } : {}) });
  if (result.status !== 0) {
    process.stderr.write(`build: ${label} failed (exit ${result.status ?? result.signal}). Fix the errors above and run \`npm run build\` again.\n`);
    process.exit(result.status ?? 1);
  }
  process.stderr.write(`build: ${label} done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

/**
 * Empties every workspace's dist/ first: output of a module that was moved or deleted would
 * otherwise stay there and be packed into the tarballs (the registry once lingered in
 * backend-kit/dist).
 */
function cleanOutputs() {
  const { workspaces } = JSON.parse(readFileSync('package.json', 'utf8'));
  for (const workspace of workspaces) rmSync(join(workspace, 'dist'), { recursive: true, force: true });
}

export function build() {
  cleanOutputs();
  step('type check and declarations (tsc -b)', process.execPath, ['node_modules/typescript/bin/tsc', '-b']);
  step('bundles (rollup)', process.execPath, ['node_modules/rollup/dist/bin/rollup', '-c', '--silent']);
  step('sample plugins (signed with the demo root)', process.execPath, ['demo-launcher/scripts/build-sample-plugins.mjs']);
  step('custom elements manifest', process.execPath, ['../node_modules/@custom-elements-manifest/analyzer/cem.js', 'analyze'], {
    cwd: 'web-components',
    quiet: true,
  });
}

if (import.meta.url === `file://${process.argv[1]}`) build();
