import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEV_BUILD_OUTPUT_LIMIT } from '@plughost/host-sdk/core';
import { type BuildCommand, detectBuildCommand, LOCK_FILES } from '../../../pluginctl/src/dev/build-command.js';
import { startBuild } from '../../../pluginctl/src/dev/build-runner.js';
import { processEnded, waitFor } from './dev-support.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pluginctl-dev-build-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const withBuildScript = (): Promise<void> => writeFile(join(dir, 'package.json'), JSON.stringify({ scripts: { build: 'vite build' } }));

/** A shell command line that runs `script` with this Node. */
function nodeCommand(script: string): BuildCommand {
  const line = `"${process.execPath}" -e ${JSON.stringify(script)}`;
  return { display: line, file: line, args: [], shell: true };
}

describe('detectBuildCommand', () => {
  it('runs `npm run build` when package.json has a build script and no lock file', async () => {
    await withBuildScript();
    expect(await detectBuildCommand(dir)).toMatchObject({ display: 'npm run build', args: ['run', 'build'] });
  });

  it.each(LOCK_FILES)('picks $manager for $file', async ({ file, manager }) => {
    await withBuildScript();
    await writeFile(join(dir, file), '');
    const command = await detectBuildCommand(dir);
    expect(command?.display).toBe(`${manager} run build`);
    expect(command?.file.replace(/\.cmd$/, '')).toBe(manager);
  });

  it('has no build without a build script, or without package.json', async () => {
    expect(await detectBuildCommand(dir)).toBeNull();
    await writeFile(join(dir, 'package.json'), JSON.stringify({ scripts: { test: 'vitest' } }));
    await writeFile(join(dir, 'pnpm-lock.yaml'), '');
    expect(await detectBuildCommand(dir)).toBeNull();
  });

  it('runs --build-cmd through the shell, even without package.json', async () => {
    expect(await detectBuildCommand(dir, 'make plugin && cp out/* dist/')).toEqual({
      display: 'make plugin && cp out/* dist/',
      file: 'make plugin && cp out/* dist/',
      args: [],
      shell: true,
    });
    await withBuildScript();
    expect((await detectBuildCommand(dir, 'tsc'))?.display).toBe('tsc');
  });

  it('says so when package.json is not JSON', async () => {
    await writeFile(join(dir, 'package.json'), '{ "scripts": ');
    await expect(detectBuildCommand(dir)).rejects.toMatchObject({ code: 'INVALID_PROJECT', message: expect.stringContaining('--build-cmd') });
    // An override needs no package.json at all.
    expect(await detectBuildCommand(dir, 'true')).not.toBeNull();
  });
});

describe('startBuild', () => {
  it('reports success with its combined output and duration', async () => {
    const build = startBuild(nodeCommand('console.log("compiled"); console.error("1 warning"); require("fs").writeFileSync("out.txt", "x")'), {
      cwd: dir,
    });
    const result = await build.result;
    expect(result).toMatchObject({ ok: true, exitCode: 0, signal: null });
    expect(result.output).toContain('compiled');
    expect(result.output).toContain('1 warning');
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('reports a failure with the exit status and the error message, colour codes removed', async () => {
    const result = await startBuild(nodeCommand('console.error("\\u001b[31msrc/App.tsx(3,1): error TS1005: \';\' expected.\\u001b[39m"); process.exit(2)'), {
      cwd: dir,
    }).result;
    expect(result).toMatchObject({ ok: false, exitCode: 2 });
    expect(result.output).toBe("src/App.tsx(3,1): error TS1005: ';' expected.\n");
  });

  it('keeps only the end of a long output', async () => {
    const result = await startBuild(nodeCommand('for (let i = 0; i < 3000; i++) console.log("line " + i); console.log("the error at the end")'), {
      cwd: dir,
    }).result;
    expect(result.output.length).toBeLessThanOrEqual(DEV_BUILD_OUTPUT_LIMIT);
    expect(result.output).toContain('the error at the end');
    expect(result.output).not.toContain('line 0\n');
  });

  it('reports a program that cannot start as a failed build', async () => {
    const result = await startBuild({ display: 'no-such-pm run build', file: 'no-such-pm-d41d8cd9', args: ['run', 'build'], shell: false }, { cwd: dir })
      .result;
    expect(result.ok).toBe(false);
    expect(result.output).toMatch(/Could not start the build \(no-such-pm run build\): .*ENOENT/);
  });

  it('kill() stops the build and what it started', async () => {
    // The shell starts Node, which would run for a minute: the shell and Node must both go.
    const pidFile = join(dir, 'pid');
    const build = startBuild(nodeCommand(`require("fs").writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setTimeout(() => {}, 60000)`), {
      cwd: dir,
    });
    await waitFor(() => readFile(pidFile, 'utf8').then(Boolean, () => false), 'the build to start');
    const pid = Number(await readFile(pidFile, 'utf8'));
    await build.kill();
    const result = await build.result;
    expect(result.ok).toBe(false);
    await waitFor(() => processEnded(pid), 'the build program to exit');
  });
});
