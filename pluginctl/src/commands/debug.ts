import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from '../args.js';
import { CliError } from '../cli-error.js';
import { CdpConnection } from '../debug/cdp.js';
import { ConsoleStream } from '../debug/console-stream.js';
import { chromiumArguments, DEMO_SERVER, findDemoRepository, runningAsRoot } from '../debug/launcher.js';
import { followLines, type StartedProgram, startProgram, stopProgram, waitForLine } from '../debug/processes.js';
import { DEBUG_PORT, probePort, readPortOption } from '../port-option.js';
import { listenForStopSignal } from '../stop-signal.js';

const HELP = `Usage: pluginctl debug [--port n] [--launcher p] [--no-logs] [--no-kill] [--headless]

Starts the launcher with Chromium's remote-debugging port and streams the console of its page and
of every plugin frame, each line tagged with the plugin id. Ctrl-C stops pluginctl and the launcher.

Without --launcher (inside this repository): starts the demo launcher's server
(${DEMO_SERVER}; PORT, HOST and LAUNCHER_HOME as for npm start) and Chromium on its page
(CHROME_PATH, else /usr/bin/chromium).

Options:
  --port n        Remote-debugging port (default ${DEBUG_PORT.fallback}, or ${DEBUG_PORT.env}; 0 picks a free one)
  --launcher p    Start this launcher program instead (or PLUGINCTL_LAUNCHER_PATH): an Electron app
                  or a Chromium-based shell, given --remote-debugging-port=N. WebKit-based
                  launchers (Tauri on macOS and Linux) have no such port and are not supported.
  --no-logs       Do not stream logs; only start and print the debugging address
  --no-kill       Leave the launcher running when pluginctl exits (prints the process ids)
  --headless      Run Chromium without a window (for tests and machines without a display)
  -h, --help      Show this help
`;

const DEVTOOLS_LINE = /DevTools listening on (ws:\/\/\S+)/;
const READY_LINE = /Launcher ready at (http\S+)/;

/** Fails early with a clear message when a fixed port is taken (Chromium would only log it). */
async function ensurePortFree(port: number): Promise<void> {
  if (port === 0 || (await probePort(port)) === null) return;
  throw new CliError('PORT_IN_USE', `Port ${port} is in use (another browser with remote debugging?). Close it, or pass --port 0 for any free port.`);
}

/** `pluginctl debug`: the launcher under Chromium's remote debugging, its consoles streamed. */
export async function run(argv: readonly string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(HELP);
    return 0;
  }
  const { options, positionals } = parseArgs(argv, { valued: ['port', 'launcher'], flags: ['no-logs', 'no-kill', 'headless'] });
  if (positionals.length > 0) throw new CliError('INVALID_ARGUMENT', `Unexpected argument "${positionals[0]}". Run \`pluginctl debug --help\`.`);
  const port = readPortOption(DEBUG_PORT, typeof options.port === 'string' ? options.port : undefined);
  const launcherPath = (typeof options.launcher === 'string' ? options.launcher : undefined) ?? (process.env.PLUGINCTL_LAUNCHER_PATH || undefined);
  const streamLogs = options['no-logs'] !== true;
  const keepRunning = options['no-kill'] === true;
  const repository = launcherPath === undefined ? findDemoRepository() : undefined;
  if (launcherPath === undefined && repository === undefined) {
    throw new CliError(
      'LAUNCHER_NOT_FOUND',
      `No launcher to start: pass --launcher <program> (or set PLUGINCTL_LAUNCHER_PATH), or run inside this repository after \`npm run build\` (it needs ${DEMO_SERVER}).`,
    );
  }
  await ensurePortFree(port);

  const workFolder = await mkdtemp(join(tmpdir(), 'pluginctl-debug-'));
  const out = (line: string): void => void process.stdout.write(`${line}\n`);
  const programs: StartedProgram[] = [];
  const stopFollowing: (() => Promise<void>)[] = [];
  let cdp: CdpConnection | undefined;
  const stop = listenForStopSignal();
  try {
    let browser: StartedProgram;
    if (repository !== undefined) {
      const server = await startProgram(process.execPath, ['--enable-source-maps', DEMO_SERVER], {
        cwd: repository,
        logFile: join(workFolder, 'launcher.log'),
      });
      programs.push(server);
      const [, pageUrl = ''] = await waitForLine(
        server,
        READY_LINE,
        'The demo launcher server',
        'Run `npm run build` if it is out of date; PORT=0 picks a free port.',
      );
      if (streamLogs) stopFollowing.push(followLines(server.logFile, (line) => out(`[launcher] ${line}`)));
      else out(`Launcher ready at ${pageUrl}`);
      const args = chromiumArguments({ port, profile: join(workFolder, 'profile'), url: pageUrl, headless: options.headless === true, root: runningAsRoot() });
      browser = await startProgram(process.env.CHROME_PATH || '/usr/bin/chromium', args, { logFile: join(workFolder, 'browser.log') });
    } else {
      const args = [`--remote-debugging-port=${port}`, ...(options.headless === true ? ['--headless=new'] : [])];
      browser = await startProgram(launcherPath ?? '', args, { logFile: join(workFolder, 'browser.log') });
    }
    programs.push(browser);
    const [, socketUrl = ''] = repository
      ? await waitForLine(browser, DEVTOOLS_LINE, 'Chromium', 'Without a display, pass --headless; CHROME_PATH names another Chromium.')
      : await waitForLine(
          browser,
          DEVTOOLS_LINE,
          `The launcher ${launcherPath}`,
          'It must be an Electron app or a Chromium-based shell that takes --remote-debugging-port.',
        );
    const chosenPort = new URL(socketUrl).port;
    out(`Remote debugging on port ${chosenPort}: http://127.0.0.1:${chosenPort}/json lists the targets (chrome://inspect to open DevTools)`);

    if (streamLogs) {
      cdp = await CdpConnection.connect(socketUrl);
      await new ConsoleStream(cdp, out).start();
    }
    const ended = await Promise.race([
      stop.signalled.then((signal) => `${signal} received`),
      ...programs.map((program, index) =>
        program.exited.then(() => (index === programs.length - 1 && programs.length > 1 ? 'the browser exited' : 'the launcher exited')),
      ),
    ]);
    process.stderr.write(`pluginctl debug: stopping (${ended}).\n`);
    return 0;
  } finally {
    stop.dispose();
    cdp?.close();
    await Promise.all(stopFollowing.map((finish) => finish()));
    const running = programs.filter((program) => program.child.exitCode === null && program.child.signalCode === null);
    if (keepRunning && running.length > 0) {
      for (const program of running) program.child.unref();
      const pids = running.map((program) => program.child.pid).join(' ');
      out(`Left running (--no-kill): pids ${pids}; logs and profile in ${workFolder}. Stop them with: kill ${pids}`);
    } else {
      // The browser first, so the page does not log the server going away.
      await Promise.all([...running].reverse().map((program) => stopProgram(program)));
      await rm(workFolder, { recursive: true, force: true, maxRetries: 3 });
    }
  }
}
