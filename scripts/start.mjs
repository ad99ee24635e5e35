#!/usr/bin/env node
// `npm start`: builds what is missing or stale, then runs the demo launcher in this process group.
import { spawn, spawnSync } from 'node:child_process';
import { buildNeeded } from './build-state.mjs';

const reason = buildNeeded();
if (reason) {
  process.stderr.write(`start: building first (${reason})\n`);
  const result = spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const launcher = spawn(process.execPath, ['--enable-source-maps', 'demo-launcher/dist/server.mjs'], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => launcher.kill(signal));
launcher.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
