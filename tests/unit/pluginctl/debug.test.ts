import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CdpConnection, type CdpEvent } from '../../../pluginctl/src/debug/cdp.js';
import { PREVIEW_MAX_ITEMS } from '../../../pluginctl/src/debug/console-preview.js';
import { ConsoleStream, formatArguments, type RemoteObject } from '../../../pluginctl/src/debug/console-stream.js';
import { chromiumArguments, runningAsRoot } from '../../../pluginctl/src/debug/launcher.js';
import { type RunningProcess, startProcess, waitForOutput } from '../../support/processes.js';

const run = promisify(execFile);
const CLI = resolve('pluginctl/dist/pluginctl.mjs');
const TOKEN = 'pluginctl-debug-test-token-0123456789abcdef';
const PLUGIN_ID = 'com.example.debuglog';

/** A plugin whose frame logs at start: what `debug` must stream tagged with its id. */
async function writeLoggingPlugin(folder: string): Promise<void> {
  await mkdir(folder, { recursive: true });
  const manifest = {
    id: PLUGIN_ID,
    name: 'Debug log',
    version: '1.0.0',
    minLauncherVersion: '0.1.0',
    description: 'Logs to the console when its frame starts.',
    author: 'pluginctl tests',
    license: 'MIT',
    layers: ['l2'],
    permissions: [],
    entry: { frontend: 'index.html' },
    contributes: { menuItems: [{ path: 'index.html', label: 'Debug log', icon: 'icon-hand' }] },
  };
  await writeFile(join(folder, 'manifest.json'), JSON.stringify(manifest));
  await writeFile(join(folder, 'index.html'), '<!doctype html><title>Debug log</title><script src="main.js"></script><p>Debug log</p>\n');
  await writeFile(
    join(folder, 'main.js'),
    'console.log("debuglog plugin started", 42);\nconsole.warn("debuglog warns", { ready: true });\nsetTimeout(() => { throw new Error("debuglog broke"); });\n',
  );
}

function launcherEnv(home: string): NodeJS.ProcessEnv {
  return { ...process.env, LAUNCHER_HOME: home, PORT: '0', LAUNCHER_API_TOKEN: TOKEN, PLUGINCTL_LAUNCHER_PATH: '', PLUGINCTL_DEBUG_PORT: '' };
}

/** Resolves when the process has exited, with its exit code. */
function exitOf(process: RunningProcess): Promise<number | null> {
  const { child } = process;
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((done) => child.once('exit', (code) => done(code)));
}

/** True when something accepts HTTP on `url`. */
async function answers(url: string): Promise<boolean> {
  return fetch(url).then(
    () => true,
    () => false,
  );
}

async function pluginctl(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], options);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('pluginctl debug', () => {
  let folder: string;
  let home: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'pluginctl-debug-test-'));
    home = join(folder, 'home');
    const plugin = join(folder, 'plugin');
    await writeLoggingPlugin(plugin);
    // Installed by the launcher's own development install, then the launcher stops: `debug`
    // starts it afresh and the plugin's frame loads with the page.
    const launcher = startProcess(process.execPath, ['demo-launcher/dist/server.mjs'], { env: launcherEnv(home) });
    try {
      const [, url] = await waitForOutput(launcher, /Launcher ready at (http\S+)/);
      const response = await fetch(`${url}api/plugins/install`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ sourceDir: plugin, enable: true }),
      });
      expect(response.status, await response.clone().text()).toBe(201);
    } finally {
      await launcher.stop();
    }
  });

  afterAll(async () => {
    await rm(folder, { recursive: true, force: true, maxRetries: 3 });
  });

  it('starts the demo launcher and Chromium, streams plugin consoles tagged with the plugin id, and stops both on SIGTERM', async () => {
    const debug = startProcess(process.execPath, [CLI, 'debug', '--port', '0', '--headless'], { env: launcherEnv(home) });
    try {
      const [, pageUrl = ''] = await waitForOutput(debug, /\[launcher\] Launcher ready at (http\S+)/);
      const [, port] = await waitForOutput(debug, /Remote debugging on port (\d+)/);
      await waitForOutput(debug, /\[plugin com\.example\.debuglog\] log: debuglog plugin started 42/);
      // Chromium usually sends an object preview with a console call, but not for a message logged
      // before the stream attached (replayed without one): then pluginctl fetches a preview itself.
      await waitForOutput(debug, /\[plugin com\.example\.debuglog\] warning: debuglog warns \{ready: true\}/);
      // Each line of the stack trace carries the tag too.
      await waitForOutput(debug, /\[plugin com\.example\.debuglog\] uncaught: Error: debuglog broke\n\[plugin com\.example\.debuglog\] +at \S+main\.js/);
      expect(await answers(pageUrl)).toBe(true);
      expect(await answers(`http://127.0.0.1:${port}/json/version`)).toBe(true);

      debug.child.kill('SIGTERM');
      expect(await exitOf(debug)).toBe(0);
      // pluginctl waits for both programs to exit: their ports are closed once it has.
      expect(await answers(pageUrl)).toBe(false);
      expect(await answers(`http://127.0.0.1:${port}/json/version`)).toBe(false);
      expect(debug.stderr()).toContain('stopping (SIGTERM received)');
    } finally {
      await debug.stop();
    }
  }, 120_000);

  it('with --no-logs streams nothing and with --no-kill leaves the launcher running', async () => {
    const debug = startProcess(process.execPath, [CLI, 'debug', '--port', '0', '--headless', '--no-logs', '--no-kill'], { env: launcherEnv(home) });
    let pids: number[] = [];
    let workFolder: string | undefined;
    try {
      const [, pageUrl = ''] = await waitForOutput(debug, /^Launcher ready at (http\S+)/m);
      const [, port] = await waitForOutput(debug, /Remote debugging on port (\d+)/);
      debug.child.kill('SIGINT');
      expect(await exitOf(debug)).toBe(0);
      const left = debug.stdout().match(/pids ([\d ]+); logs and profile in (\S+)\. Stop them with: kill/);
      expect(left).not.toBeNull();
      pids = (left?.[1] ?? '').trim().split(' ').map(Number);
      workFolder = left?.[2];
      expect(pids).toHaveLength(2);
      expect(debug.stdout()).not.toMatch(/^\[(launcher|page|plugin)/m);
      expect(await answers(pageUrl)).toBe(true);
      expect(await answers(`http://127.0.0.1:${port}/json/version`)).toBe(true);
    } finally {
      await debug.stop();
      await Promise.all(pids.map((pid) => stopPid(pid)));
      if (workFolder) await rm(workFolder, { recursive: true, force: true, maxRetries: 3 });
    }
  }, 120_000);

  it('refuses a debugging port that is taken, saying how to pick another', async () => {
    const server: Server = createServer();
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    const { port } = server.address() as { port: number };
    try {
      const result = await pluginctl(['debug', '--port', String(port), '--headless'], { env: launcherEnv(home) });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`PORT_IN_USE: Port ${port} is in use`);
      expect(result.stderr).toContain('--port 0');
    } finally {
      await new Promise((closed) => server.close(closed));
    }
  });

  it('outside the repository and without --launcher says what to pass', async () => {
    const alone = join(folder, 'alone');
    await mkdir(alone);
    await copyFile(CLI, join(alone, 'pluginctl.mjs'));
    const outside = await run(process.execPath, [join(alone, 'pluginctl.mjs'), 'debug', '--port', '0'], { cwd: alone, env: launcherEnv(home) }).catch(
      (error: unknown) => error as { code: number; stderr: string },
    );
    expect(outside).toMatchObject({ code: 1, stderr: expect.stringContaining('LAUNCHER_NOT_FOUND: No launcher to start: pass --launcher <program>') });
    expect(await readdir(alone)).toEqual(['pluginctl.mjs']);
  });

  it('starts --launcher with --remote-debugging-port and streams its page and its plugin frames', async () => {
    // Chromium itself, with its default features, stands for an Electron launcher: a program given
    // the debugging port. Its sandboxed frame runs in a process of its own, as users' Chromium runs it.
    const page = join(folder, 'shell-page.html');
    await writeFile(
      page,
      '<!doctype html><script>console.log("shell page says hi", {from: "shell", items: [1, 2]})</script>' +
        '<iframe sandbox="allow-scripts" data-plugin-id="com.example.shellframe" srcdoc="<script>console.log(&quot;from the shell frame&quot;)</script>"></iframe>',
    );
    const shell = join(folder, 'shell.sh');
    const flags = [
      `--user-data-dir=${join(folder, 'shell-profile')}`,
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
    ];
    await writeFile(shell, `#!/bin/sh\nexec "\${CHROME_PATH:-/usr/bin/chromium}" "$@" ${flags.join(' ')} "file://${page}"\n`, { mode: 0o755 });
    const debug = startProcess(process.execPath, [CLI, 'debug', '--port', '0', '--headless', '--launcher', shell], { env: launcherEnv(home) });
    try {
      await waitForOutput(debug, /Remote debugging on port \d+/);
      // The object's content, whether Chromium previewed it or the page logged before pluginctl attached.
      await waitForOutput(debug, /\[page\] log: shell page says hi \{from: 'shell', items: Array\(2\)\}/);
      await waitForOutput(debug, /\[plugin com\.example\.shellframe\] log: from the shell frame/);
      debug.child.kill('SIGTERM');
      expect(await exitOf(debug)).toBe(0);
    } finally {
      await debug.stop();
    }
  }, 60_000);

  it('lists every option in --help', async () => {
    const { code, stdout } = await pluginctl(['debug', '--help']);
    expect(code).toBe(0);
    for (const option of [
      '--port n',
      '--launcher p',
      '--no-logs',
      '--no-kill',
      '--headless',
      'PLUGINCTL_DEBUG_PORT',
      'PLUGINCTL_LAUNCHER_PATH',
      'CHROME_PATH',
      'WebKit',
    ]) {
      expect(stdout).toContain(option);
    }
  });

  it('renders console arguments like the DevTools console', () => {
    expect(
      formatArguments([
        { type: 'string', value: 'a' },
        { type: 'number', value: 42 },
        { type: 'number', unserializableValue: 'NaN' },
        { type: 'undefined' },
        { type: 'object', description: 'Array(2)' },
        { type: 'object', subtype: 'null', value: null },
        {
          type: 'object',
          description: 'Object',
          preview: {
            properties: [
              { name: 'ready', type: 'boolean', value: 'true' },
              { name: 'name', type: 'string', value: 'x' },
            ],
          },
        },
        {
          type: 'object',
          subtype: 'array',
          description: 'Array(3)',
          preview: { subtype: 'array', overflow: true, properties: [{ name: '0', type: 'number', value: '1' }] },
        },
      ]),
    ).toBe("a 42 NaN undefined Array(2) null {ready: true, name: 'x'} [1, …]");
  });
});

/** Polls `condition` until it holds, failing after `timeoutMs`. */
async function until(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((next) => setTimeout(next, 50));
  }
}

describe('pluginctl debug console stream', () => {
  it('prints the content of an object logged before it attached (replayed without a preview), bounded, without running getters', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'pluginctl-console-preview-'));
    const page = join(folder, 'page.html');
    // Logged at load, long before the stream attaches; the title then says it is done.
    await writeFile(
      page,
      '<!doctype html><script>' +
        'const watched = { get boom() { document.title = "a getter ran"; return 1; } };' +
        'console.log("replayed", {ready: true, name: "x", nested: {a: 1}, list: [1, 2, 3]}, watched, Array.from({length: 25}, (_, i) => i), new Date(0));' +
        'document.title = "logged";' +
        '</script>',
    );
    const args = chromiumArguments({ port: 0, profile: join(folder, 'profile'), url: `file://${page}`, headless: true, root: runningAsRoot() });
    // Chromium prints its DevTools address on stderr; the shell hands it to stdout for waitForOutput.
    const chromium = startProcess('/bin/sh', ['-c', 'exec "$0" "$@" 2>&1', process.env.CHROME_PATH || '/usr/bin/chromium', ...args]);
    let cdp: CdpConnection | undefined;
    try {
      const [, socketUrl = ''] = await waitForOutput(chromium, /DevTools listening on (ws:\/\/\S+)/);
      const port = new URL(socketUrl).port;
      const title = async (): Promise<string | undefined> => {
        const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { type: string; title: string }[];
        return targets.find((target) => target.type === 'page')?.title;
      };
      await until('the page to log', async () => (await title()) === 'logged');

      cdp = await CdpConnection.connect(socketUrl);
      const raw: RemoteObject[][] = [];
      cdp.on('event', (event: CdpEvent) => {
        if (event.method === 'Runtime.consoleAPICalled') raw.push(event.params.args as RemoteObject[]);
      });
      const lines: string[] = [];
      await new ConsoleStream(cdp, (line) => lines.push(line)).start();
      await until('the replayed line', () => lines.some((line) => line.startsWith('[page] log: replayed')));

      // What this test is about: Chromium replays the message without previews, with object ids.
      expect(raw[0]?.[1]).toMatchObject({ type: 'object', objectId: expect.any(String) });
      expect(raw[0]?.[1]?.preview).toBeUndefined();
      const items = Array.from({ length: PREVIEW_MAX_ITEMS }, (_, index) => index).join(', ');
      expect(lines).toContain(
        `[page] log: replayed {ready: true, name: 'x', nested: Object, list: Array(3)} {boom: (…)} [${items}, …] ${raw[0]?.[4]?.description ?? 'Date'}`,
      );
      expect(raw[0]?.[4]?.description).toMatch(/1970/);
      // The preview read the getter's descriptor, not its value.
      expect(await title()).toBe('logged');
    } finally {
      cdp?.close();
      await chromium.stop();
      await rm(folder, { recursive: true, force: true, maxRetries: 3 });
    }
  }, 60_000);
});

describe('pluginctl debug options', () => {
  // `pluginctl dev` has its own tests (dev-command.test.ts).
  it('refuses a port above 65535 as bad usage', async () => {
    expect(await pluginctl(['debug', '--port', '70000'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('INVALID_ARGUMENT: --port must be a port number'),
    });
  });
});

/** Stops a process pluginctl left running (--no-kill) and waits until it is gone. */
async function stopPid(pid: number): Promise<void> {
  const alive = (): boolean => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (!alive()) return;
  process.kill(pid, 'SIGTERM');
  // Not our child, so no exit event: poll until the kernel has reaped it (bounded).
  for (let attempt = 0; attempt < 200 && alive(); attempt += 1) await new Promise((next) => setTimeout(next, 50));
  if (alive()) process.kill(pid, 'SIGKILL');
}
