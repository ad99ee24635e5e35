#!/usr/bin/env node
// Makes sure Chromium is available for the browser tests. Installs Debian's `chromium` package
// when it is missing and apt is usable; otherwise stops with instructions.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { findChromium } from './chromium.mjs';

function canRunApt() {
  if (!existsSync('/usr/bin/apt-get')) return false;
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

function run(command, args) {
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  return result.status === 0;
}

export function ensureChromium() {
  const found = findChromium();
  if (found) return found;
  if (process.env.CHROME_PATH) {
    throw new Error(`CHROME_PATH is set to ${process.env.CHROME_PATH}, but no file is there. Point it at a Chromium or Chrome executable.`);
  }
  if (!canRunApt()) {
    throw new Error(
      'Chromium is needed for the browser tests and was not found.\n' +
        '  Debian/Ubuntu: sudo apt-get install chromium\n' +
        '  Elsewhere: install Chromium or Chrome and set CHROME_PATH to its executable.',
    );
  }
  console.error('Chromium is missing; installing Debian\'s `chromium` package (apt-get)...');
  const ok = run('apt-get', ['update', '-qq']) && run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium']);
  const installed = findChromium();
  if (!ok || !installed) {
    throw new Error('Installing Chromium with apt-get failed (see the output above). Install it by hand (apt-get install chromium) or set CHROME_PATH.');
  }
  console.error(`Chromium installed: ${execFileSync(installed, ['--version']).toString().trim()}`);
  return installed;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    console.log(ensureChromium());
  } catch (error) {
    console.error(`CHROMIUM_MISSING: ${error.message}`);
    process.exit(1);
  }
}
