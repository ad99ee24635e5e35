import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);

// pluginctl ships as one file with no runtime dependencies: prove it by running it alone.
describe('pluginctl bundle', () => {
  let folder: string;
  let cli: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'pluginctl-alone-'));
    cli = join(folder, 'pluginctl.mjs');
    await copyFile('pluginctl/dist/pluginctl.mjs', cli);
  });

  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('is the only file in its folder and starts with a node shebang', async () => {
    expect(await readdir(folder)).toEqual(['pluginctl.mjs']);
    expect((await readFile(cli, 'utf8')).startsWith('#!/usr/bin/env node\n')).toBe(true);
  });

  it('prints its version from package.json', async () => {
    const { version } = JSON.parse(await readFile('pluginctl/package.json', 'utf8')) as { version: string };
    const { stdout } = await run(process.execPath, [cli, '--version'], { cwd: folder });
    expect(stdout.trim()).toBe(version);
  });

  it('prints help listing its commands', async () => {
    const { stdout } = await run(process.execPath, [cli, '--help'], { cwd: folder });
    expect(stdout).toContain('Usage: pluginctl <command>');
    expect(stdout).toContain('verify [--package <file>]');
    // The specification's command table, every one routed.
    for (const command of ['create', 'dev', 'pack', 'verify', 'lint', 'bump', 'publish', 'login', 'logout', 'doctor', 'debug'])
      expect(stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
  });

  it('fails with CODE: message and status 2 (bad usage) on an unknown command', async () => {
    const failure = await run(process.execPath, [cli, 'frobnicate'], { cwd: folder }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 2, stderr: expect.stringContaining('UNKNOWN_COMMAND: Unknown command "frobnicate"') });
  });
});
