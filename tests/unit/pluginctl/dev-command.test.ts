import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEV_PLUGINS_FILE_NAME } from '@plughost/host-sdk/core';
import { type RunningProcess, startProcess, waitForOutput } from '../../support/processes.js';
import { readDevEvents } from './dev-support.js';

const run = promisify(execFile);
const CLI = resolve('pluginctl/dist/pluginctl.mjs');
const PLUGIN_ID = 'com.example.devcli';

let root: string;
let project: string;
let home: string;
const started: RunningProcess[] = [];

/** The environment of a pluginctl run: no port settings inherited from the machine. */
function env(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...process.env, LAUNCHER_HOME: home, PLUGINCTL_DEV_PORT: '', PLUGINCTL_STUB_PORT: '', PLUGINCTL_HARNESS_PORT: '', ...extra };
}

async function pluginctl(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { cwd: options.cwd ?? project, env: options.env ?? env() });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

function startDev(args: string[], extraEnv: NodeJS.ProcessEnv = {}): RunningProcess {
  const dev = startProcess(process.execPath, [CLI, 'dev', ...args], { cwd: project, env: env(extraEnv) });
  started.push(dev);
  return dev;
}

function exitOf(dev: RunningProcess): Promise<number | null> {
  const { child } = dev;
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((done) => child.once('exit', (code) => done(code)));
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'pluginctl-dev-command-'));
  home = join(root, 'launcher-home');
  // A new author's project, made the way the docs say.
  const created = await pluginctl(['create', PLUGIN_ID, '-t', 'html'], { cwd: root });
  expect(created.code, created.stderr).toBe(0);
  project = join(root, PLUGIN_ID);
});
afterEach(async () => {
  await Promise.all(started.splice(0).map((dev) => dev.stop()));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('pluginctl dev in a plugin project (bare dev server)', () => {
  it('serves the plugin, writes its .dev-plugins.json entry, and removes it on SIGTERM (exit 0)', async () => {
    const dev = startDev(['--port', '0', '--stub-port', '0']);
    const [, url = ''] = await waitForOutput(dev, /Dev server at (http:\/\/127\.0\.0\.1:\d+\/)\n/);
    const file = join(home, DEV_PLUGINS_FILE_NAME);
    await waitForOutput(dev, /Wrote com\.example\.devcli to .*\n/);
    expect(dev.stdout()).toContain(`Wrote ${PLUGIN_ID} to ${file}`);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ [PLUGIN_ID]: url });
    expect(dev.stderr()).toContain('--stub-port is ignored outside a tree with plugins-dev/');

    const manifest = (await (await fetch(new URL('manifest.json', url))).json()) as { id: string };
    expect(manifest.id).toBe(PLUGIN_ID);
    expect((await fetch(new URL('index.html', url))).status).toBe(200);
    // What .plugignore leaves out of the package is not served.
    expect((await fetch(new URL('package.json', url))).status).toBe(404);

    // A project without a build: a change is announced as rebuilt after the quiet period.
    const events = await readDevEvents(url);
    expect(await events.next()).toEqual({ type: 'hello', pluginIds: [PLUGIN_ID] });
    await writeFile(join(project, 'index.html'), `${await readFile(join(project, 'index.html'), 'utf8')}\n<!-- edited -->\n`);
    expect(await events.next()).toMatchObject({ type: 'rebuilt', pluginId: PLUGIN_ID, durationMs: 0 });
    events.close();

    dev.child.kill('SIGTERM');
    expect(await exitOf(dev)).toBe(0);
    expect(dev.stderr()).toContain('pluginctl dev: stopping (SIGTERM received).');
    expect(existsSync(file)).toBe(false);
  });

  it('takes PLUGINCTL_DEV_PORT and --launcher-home, keeps other entries, and stops on SIGINT', async () => {
    const otherHome = join(root, 'other-home');
    await mkdir(otherHome, { recursive: true });
    const file = join(otherHome, DEV_PLUGINS_FILE_NAME);
    await writeFile(file, JSON.stringify({ 'com.example.other': 'http://127.0.0.1:5999/' }));
    const dev = startDev(['--launcher-home', otherHome], { PLUGINCTL_DEV_PORT: '0' });
    const [, url = ''] = await waitForOutput(dev, /Dev server at (http:\/\/127\.0\.0\.1:\d+\/)\n/);
    await waitForOutput(dev, /Wrote .*\n/);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ 'com.example.other': 'http://127.0.0.1:5999/', [PLUGIN_ID]: url });
    expect(existsSync(join(home, DEV_PLUGINS_FILE_NAME))).toBe(false);

    dev.child.kill('SIGINT');
    expect(await exitOf(dev)).toBe(0);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ 'com.example.other': 'http://127.0.0.1:5999/' });
  });

  it('says which port is taken and how to pick another (exit 1)', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((done) => blocker.listen(0, '127.0.0.1', done));
    const address = blocker.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const { code, stderr } = await pluginctl(['dev', '--port', String(port)]);
      expect(code).toBe(1);
      expect(stderr).toContain(`PORT_IN_USE: Port ${port} on 127.0.0.1 is in use`);
      expect(stderr).toContain('--port <n> (or set PLUGINCTL_DEV_PORT); 0 picks a free port');
    } finally {
      await new Promise((done) => blocker.close(done));
    }
  });

  it('asks for a plugin project or a plugins-dev/ tree elsewhere (exit 1)', async () => {
    const empty = join(root, 'empty');
    await mkdir(empty, { recursive: true });
    const { code, stderr } = await pluginctl(['dev', '--port', '0'], { cwd: empty });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^NO_MANIFEST: No manifest\.json in .*empty\. Run pluginctl dev in a plugin project/);
    expect(stderr).toContain('plugins-dev/');
  });
});

describe('pluginctl dev in a tree with plugins-dev/ (debug harness)', () => {
  let tree: string;

  beforeAll(async () => {
    tree = join(root, 'launcher-tree');
    const plugin = join(tree, 'plugins-dev', 'com.example.harnessed');
    await mkdir(plugin, { recursive: true });
    const manifest = JSON.parse(await readFile(join(project, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    await writeFile(join(plugin, 'manifest.json'), JSON.stringify({ ...manifest, id: 'com.example.harnessed' }));
    await writeFile(join(plugin, 'index.html'), '<!doctype html><p>harnessed</p>');
  });

  function startHarnessDev(args: string[], extraEnv: NodeJS.ProcessEnv = {}): RunningProcess {
    const dev = startProcess(process.execPath, [CLI, 'dev', ...args], { cwd: tree, env: env(extraEnv) });
    started.push(dev);
    return dev;
  }

  it('starts the stub and the harness on the ports given, ignores --port with a notice, and stops on SIGTERM', async () => {
    const dev = startHarnessDev(['--port', '5173', '--harness-port', '0'], { PLUGINCTL_STUB_PORT: '0' });
    const [, stubUrl = ''] = await waitForOutput(dev, /Stub backend at (http:\/\/127\.0\.0\.1:\d+)\/?\n/);
    const [, harnessUrl = ''] = await waitForOutput(dev, /Harness at (http:\/\/127\.0\.0\.1:\d+\/?)\n/);
    expect(dev.stderr()).toContain('--port is ignored here: this folder has plugins-dev/');
    expect(new URL(stubUrl).port).not.toBe('5100');
    expect((await fetch(new URL('/api/health', stubUrl))).status).toBe(200);
    expect((await fetch(harnessUrl)).status).toBe(200);
    // The bare dev server's registration is not made in the harness.
    expect(existsSync(join(home, DEV_PLUGINS_FILE_NAME))).toBe(false);

    dev.child.kill('SIGTERM');
    expect(await exitOf(dev)).toBe(0);
    expect(dev.stderr()).toContain('pluginctl dev: stopping (SIGTERM received).');
    await expect(fetch(harnessUrl)).rejects.toThrow();
  });

  it('refuses a --mock file with an unknown key before starting (exit 2)', async () => {
    const mock = join(root, 'bad-mock.json');
    await writeFile(mock, JSON.stringify({ settingz: {} }));
    const { code, stderr, stdout } = await pluginctl(['dev', '--stub-port', '0', '--harness-port', '0', '--mock', mock], { cwd: tree });
    expect(code).toBe(2);
    expect(stderr).toMatch(/^INVALID_MOCK: .*settingz/);
    expect(stdout).toBe('');
  });

  it('names the option and variable of a taken harness or stub port (exit 1)', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((done) => blocker.listen(0, '127.0.0.1', done));
    const address = blocker.address();
    const port = String(typeof address === 'object' && address ? address.port : 0);
    try {
      const harness = await pluginctl(['dev', '--stub-port', '0', '--harness-port', port], { cwd: tree });
      expect(harness.code).toBe(1);
      expect(harness.stderr).toMatch(new RegExp(`^PORT_IN_USE: .*${port}.*--harness-port <n> \\(or set PLUGINCTL_HARNESS_PORT\\)`));
      const stub = await pluginctl(['dev', '--stub-port', port, '--harness-port', '0'], { cwd: tree });
      expect(stub.code).toBe(1);
      expect(stub.stderr).toMatch(new RegExp(`^PORT_IN_USE: Port ${port} is in use.*--stub-port <n> \\(or set PLUGINCTL_STUB_PORT\\)`));
    } finally {
      await new Promise((done) => blocker.close(done));
    }
  });
});

describe('pluginctl dev usage', () => {
  it('refuses bad ports and unknown options as bad usage (exit 2)', async () => {
    for (const [args, extraEnv, text] of [
      [['--port', 'x'], {}, '--port must be a port number from 0 to 65535, got "x"'],
      [['--port', '70000'], {}, '--port must be a port number'],
      [[], { PLUGINCTL_DEV_PORT: '-1' }, 'PLUGINCTL_DEV_PORT must be a port number'],
      [['--watch'], {}, 'Unknown option --watch'],
      [['extra'], {}, 'Unexpected argument "extra"'],
      [['--build-cmd', ' '], {}, '--build-cmd needs a command'],
    ] as const) {
      const result = await pluginctl(['dev', ...args], { env: env(extraEnv) });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toContain(`INVALID_ARGUMENT: ${text}`);
    }
  });

  it('lists every option and port variable in --help', async () => {
    const { code, stdout } = await pluginctl(['dev', '--help']);
    expect(code).toBe(0);
    for (const text of [
      '--port n',
      '--stub-port n',
      '--harness-port n',
      '--mock file.json',
      '--build-cmd "cmd"',
      '--launcher-home dir',
      '-h, --help',
      'PLUGINCTL_DEV_PORT',
      'PLUGINCTL_STUB_PORT',
      'PLUGINCTL_HARNESS_PORT',
      'LAUNCHER_HOME',
      '.dev-plugins.json',
      'plugins-dev/',
    ]) {
      expect(stdout).toContain(text);
    }
    const overview = await pluginctl(['--help']);
    expect(overview.stdout).toContain('dev [--port n] [--stub-port n] [--harness-port n] [--mock f] [--build-cmd c] [--launcher-home d]');
  });
});
