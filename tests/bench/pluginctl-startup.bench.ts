// Start-up of the plugin authors' CLI: `pluginctl --help` should answer in under 150 ms (issue 15).
// Run with `npm run bench` after `npm run build`; a measurement, never a pass/fail test.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bench, describe } from 'vitest';

const CLI = fileURLToPath(new URL('../../pluginctl/dist/pluginctl.mjs', import.meta.url));
if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);

describe('pluginctl start-up (a new Node process each time)', () => {
  bench('pluginctl --help', () => {
    execFileSync(process.execPath, [CLI, '--help'], { stdio: 'ignore' });
  });
  bench('pluginctl --version', () => {
    execFileSync(process.execPath, [CLI, '--version'], { stdio: 'ignore' });
  });
  bench('node -e "" (the floor: Node itself)', () => {
    execFileSync(process.execPath, ['-e', ''], { stdio: 'ignore' });
  });
});
