import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBackend, type TestBackend } from '../../../support/local-backend.js';
import { sampleManifest } from '../../../support/plugin-package.js';

const ID = 'com.example.shell';
const URL_PATH = `/api/plugins/shell/${ID}`;
const TOKEN = 'shell-test-token-0123456789abcdef';
const posix = process.platform !== 'win32';

/** True while `pid` is a live process (a zombie counts as gone: it no longer runs). */
async function isRunning(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return !/^\d+ \(.*\) Z/.test(stat);
}

async function waitUntilGone(pid: number, ms = 3000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!(await isRunning(pid))) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return !(await isRunning(pid));
}

describe.runIf(posix)('POST /api/plugins/shell/:id', () => {
  let server: TestBackend;
  let scratch: string;
  const saved = { ...process.env };

  async function run(json: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await server.api(URL_PATH, { json });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  beforeAll(async () => {
    process.env.LAUNCHER_API_TOKEN = TOKEN;
    process.env.PLUGINCTL_TOKEN = 'pluginctl-secret';
    process.env.REGISTRY_ADMIN_KEY = 'registry-secret';
    process.env.VENDOR_COPY_OF_TOKEN = `prefix-${TOKEN}`;
    process.env.SHELL_TEST_HARMLESS = 'kept';
    server = await startTestBackend({ token: TOKEN });
    const folder = join(server.dataDirectory, 'plugins', ID);
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'manifest.json'), JSON.stringify(sampleManifest({ id: ID, permissions: ['shell:execute'] })));
    scratch = await mkdtemp(join(tmpdir(), 'shell-test-'));
  });
  afterAll(async () => {
    for (const name of ['LAUNCHER_API_TOKEN', 'PLUGINCTL_TOKEN', 'REGISTRY_ADMIN_KEY', 'VENDOR_COPY_OF_TOKEN', 'SHELL_TEST_HARMLESS']) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
    await server.close();
    await rm(scratch, { recursive: true, force: true });
  });

  it('answers exit code, stdout and stderr', async () => {
    expect(await run({ command: 'echo hello; echo oops >&2; exit 3' })).toEqual({ status: 200, body: { exitCode: 3, stdout: 'hello\n', stderr: 'oops\n' } });
    expect(await run({ command: 'printf "é😀"' })).toEqual({ status: 200, body: { exitCode: 0, stdout: 'é😀', stderr: '' } });
    expect((await run({ command: 'kill -9 $$' })).body.exitCode).toBe(137);
  });

  it('needs the token', async () => {
    expect((await server.api(URL_PATH, { json: { command: 'true' }, token: null })).status).toBe(401);
  });

  it('runs in the user home folder with stdin closed', async () => {
    expect((await run({ command: 'pwd -P' })).body.stdout).toBe(`${await realpath(homedir())}\n`);
    // `cat` would wait forever on an open stdin.
    expect(await run({ command: 'cat', timeoutMs: 5000 })).toEqual({ status: 200, body: { exitCode: 0, stdout: '', stderr: '' } });
  });

  it('does not pass the API token or launcher, CLI and registry secrets to the command', async () => {
    const { body } = await run({ command: 'env' });
    const environment = String(body.stdout);
    expect(environment).not.toContain(TOKEN);
    expect(environment).not.toMatch(/^(LAUNCHER_|PLUGINCTL_|REGISTRY_)/m);
    expect(environment).not.toContain('pluginctl-secret');
    expect(environment).not.toContain('registry-secret');
    expect(environment).toContain('SHELL_TEST_HARMLESS=kept');
  });

  it('refuses an empty or blank command with SHELL_COMMAND_REQUIRED', async () => {
    for (const command of ['', '   ', '\n\t', undefined]) {
      const { status, body } = await run(command === undefined ? {} : { command });
      expect(status).toBe(400);
      expect(body).toMatchObject({ error: { code: 'SHELL_COMMAND_REQUIRED' } });
    }
  });

  it('refuses a timeout outside 1000..120000 and malformed fields with INVALID_ARGUMENT', async () => {
    for (const json of [
      { command: 'true', timeoutMs: 999 },
      { command: 'true', timeoutMs: 120001 },
      { command: 'true', timeoutMs: 1500.5 },
      { command: 'true', timeoutMs: '2000' },
      { command: 42 },
      { command: 'true', cwd: '/' },
    ]) {
      const { status, body } = await run(json);
      expect(status, JSON.stringify(json)).toBe(400);
      expect(body).toMatchObject({ error: { code: 'INVALID_ARGUMENT' } });
    }
    expect((await run({ command: 'true', timeoutMs: 1000 })).status).toBe(200);
    expect((await run({ command: 'true', timeoutMs: 120000 })).status).toBe(200);
  });

  it('answers 404 PLUGIN_NOT_FOUND for a plugin that is not installed', async () => {
    const response = await server.api('/api/plugins/shell/com.example.missing', { json: { command: 'touch /tmp/should-not-run' } });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: 'PLUGIN_NOT_FOUND' } });
  });

  it('caps stdout and stderr at 1 MiB each with a marker', async () => {
    const { status, body } = await run({
      command: "head -c 3000000 /dev/zero | tr '\\0' a; head -c 2000000 /dev/zero | tr '\\0' b >&2; echo done >&2; exit 0",
    });
    expect(status).toBe(200);
    const marker = '\n[output truncated after 1048576 bytes]';
    expect(body.stdout).toBe('a'.repeat(1048576) + marker);
    expect(body.stderr).toBe('b'.repeat(1048576) + marker);
    expect(body.exitCode).toBe(0);
  });

  it('takes the output cap from shellOutputLimitBytes', async () => {
    const small = await startTestBackend({ token: TOKEN, shellOutputLimitBytes: 1000 });
    try {
      const folder = join(small.dataDirectory, 'plugins', ID);
      await mkdir(folder, { recursive: true });
      await writeFile(join(folder, 'manifest.json'), JSON.stringify(sampleManifest({ id: ID, permissions: ['shell:execute'] })));
      const response = await small.api(URL_PATH, { json: { command: "head -c 5000 /dev/zero | tr '\\0' a" } });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { stdout: string }).stdout).toBe(`${'a'.repeat(1000)}\n[output truncated after 1000 bytes]`);
    } finally {
      await small.close();
    }
    await expect(startTestBackend({ shellOutputLimitBytes: 0 })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('shellOutputLimitBytes'),
    });
  });

  it('kills the whole process tree on timeout, even processes that ignore SIGTERM', async () => {
    const child = join(scratch, 'child.pid');
    const grandchild = join(scratch, 'grandchild.pid');
    const command = `trap '' TERM; ( trap '' TERM; sleep 60 & echo $! > '${grandchild}'; wait ) & echo $! > '${child}'; echo started; wait`;
    const began = Date.now();
    const { status, body } = await run({ command, timeoutMs: 1000 });
    expect(status).toBe(400);
    expect(body).toMatchObject({ error: { code: 'SHELL_TIMEOUT' } });
    expect(Date.now() - began).toBeLessThan(5000);
    const childPid = Number(await readFile(child, 'utf8'));
    const grandchildPid = Number(await readFile(grandchild, 'utf8'));
    expect(childPid).toBeGreaterThan(0);
    expect(grandchildPid).toBeGreaterThan(0);
    expect(await waitUntilGone(childPid)).toBe(true);
    expect(await waitUntilGone(grandchildPid)).toBe(true);
  });

  it('times out a command whose background process keeps the output open', async () => {
    const pidFile = join(scratch, 'background.pid');
    const { status, body } = await run({ command: `sleep 60 & echo $! > '${pidFile}'; exit 0`, timeoutMs: 1000 });
    expect(status).toBe(400);
    expect(body).toMatchObject({ error: { code: 'SHELL_TIMEOUT' } });
    expect(await waitUntilGone(Number(await readFile(pidFile, 'utf8')))).toBe(true);
  });
});
