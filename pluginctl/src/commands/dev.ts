import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from '../args.js';
import { CliError } from '../cli-error.js';
import { startBareDevServer } from '../dev/bare-dev-server.js';
import { startHarness } from '../harness/index.js';
import { loadMockFile } from '../harness/stub/index.js';
import { DEV_PORT, HARNESS_PORT, type PortOption, readPortOption, STUB_PORT } from '../port-option.js';
import { listenForStopSignal } from '../stop-signal.js';

const HELP = `Usage: pluginctl dev [--port n] [--stub-port n] [--harness-port n] [--mock file.json]
                     [--build-cmd "command"] [--launcher-home dir]

Runs plugins under development with hot reload, until Ctrl-C (SIGINT) or SIGTERM.

In a launcher's source tree (the current folder has plugins-dev/): the debug harness. A stub
backend answers the launcher's API with fake data, and the harness page shows every
plugins-dev/<id>/ in the real launcher components, with the real bridge and permission gate.

In a plugin project (the current folder has manifest.json): a bare dev server. It builds the
project, serves manifest.json and the files \`pluginctl pack\` would package, and writes
{"<id>": "http://127.0.0.1:PORT/"} into .dev-plugins.json in the launcher's data directory;
a launcher started with NODE_ENV=development loads the plugin from there, marked "dev".
Stopping removes the entry.

Both rebuild 400 ms after the last change to src/, index.html, theme.css, overlay.html or
vite.config.ts, and reload the plugin's frame when the build succeeds (a failed build shows its
output; the running version stays).

Options:
  --port n              Bare dev server port (default ${DEV_PORT.fallback}, or ${DEV_PORT.env}); ignored in
                        the harness
  --stub-port n         Harness stub backend port (default ${STUB_PORT.fallback}, or ${STUB_PORT.env})
  --harness-port n      Harness page port (default ${HARNESS_PORT.fallback}, or ${HARNESS_PORT.env})
  --mock file.json      Harness: override the stub's answers (keys settings, systemInfo,
                        proxyResponse, modpackInstall, downloadStart, downloadProgress, fileRead,
                        execCommand, wasmList, pluginStates)
  --build-cmd "cmd"     Build with this shell command instead of \`<package manager> run build\`
                        (npm, pnpm, yarn or bun by the lock file; only when package.json has a
                        "build" script)
  --launcher-home dir   Bare: the launcher data directory for .dev-plugins.json (default
                        LAUNCHER_HOME, else the demo launcher's data folder)
  -h, --help            Show this help

Port 0 picks a free port; the ports chosen are printed.
`;

async function isFolder(path: string): Promise<boolean> {
  return stat(path).then(
    (found) => found.isDirectory(),
    () => false,
  );
}

/** A listen failure inside the harness, told with the option that changes the port. */
function explainHarnessError(error: unknown, stubPort: number, harnessPort: number): unknown {
  const failure = error as NodeJS.ErrnoException & { port?: number };
  if (failure.code !== 'EADDRINUSE') return error;
  const stub = failure.port === stubPort && stubPort !== 0;
  const [port, setting]: [number, PortOption] = stub ? [stubPort, STUB_PORT] : [harnessPort, HARNESS_PORT];
  return new CliError(
    'PORT_IN_USE',
    `Port ${failure.port ?? port} is in use (another pluginctl dev?). Stop it, or pass ${setting.option} <n> (or set ${setting.env}); 0 picks a free port.`,
  );
}

/** `pluginctl dev`: the debug harness in a tree with plugins-dev/, a bare dev server in a plugin project. */
export async function run(argv: readonly string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(HELP);
    return 0;
  }
  const { options, positionals } = parseArgs(argv, { valued: ['port', 'stub-port', 'harness-port', 'mock', 'build-cmd', 'launcher-home'] });
  if (positionals.length > 0) throw new CliError('INVALID_ARGUMENT', `Unexpected argument "${positionals[0]}". Run \`pluginctl dev --help\`.`);
  const text = (name: string): string | undefined => (typeof options[name] === 'string' ? (options[name] as string) : undefined);
  const buildCommand = text('build-cmd');
  if (buildCommand !== undefined && buildCommand.trim() === '') throw new CliError('INVALID_ARGUMENT', '--build-cmd needs a command.');
  const root = process.cwd();
  const harness = await isFolder(resolve(root, 'plugins-dev'));
  const out = (line: string): void => void process.stdout.write(`${line}\n`);
  const note = (line: string): void => void process.stderr.write(`${line}\n`);
  const ignored = (names: readonly string[], why: string): void => {
    for (const name of names) if (options[name] !== undefined) note(`pluginctl dev: --${name} is ignored ${why}.`);
  };

  const stop = listenForStopSignal();
  try {
    let close: () => Promise<void>;
    if (harness) {
      ignored(['port', 'launcher-home'], 'here: this folder has plugins-dev/, so the debug harness starts (ports: --stub-port, --harness-port)');
      const stubPort = readPortOption(STUB_PORT, text('stub-port'));
      const harnessPort = readPortOption(HARNESS_PORT, text('harness-port'));
      const mockPath = text('mock');
      const mock = mockPath !== undefined ? await loadMockFile(resolve(root, mockPath)) : undefined;
      const running = await startHarness({
        root,
        stubPort,
        harnessPort,
        ...(mock !== undefined && mockPath !== undefined ? { mock, mockFile: mockPath } : {}),
        ...(buildCommand !== undefined ? { buildCommand } : {}),
        log: note,
      }).catch((error: unknown) => {
        throw explainHarnessError(error, stubPort, harnessPort);
      });
      out(`Stub backend at ${running.stubUrl}`);
      out(`Harness at ${running.harnessUrl}`);
      close = () => running.close();
    } else {
      ignored(['stub-port', 'harness-port', 'mock'], 'outside a tree with plugins-dev/ (they belong to the debug harness)');
      const port = readPortOption(DEV_PORT, text('port'));
      const launcherHome = text('launcher-home');
      const server = await startBareDevServer({
        projectDir: root,
        port,
        ...(buildCommand !== undefined ? { buildCommand } : {}),
        ...(launcherHome !== undefined ? { launcherHome } : {}),
        log: note,
      });
      out(`Dev server at ${server.url}`);
      out(`Wrote ${server.pluginId} to ${server.devPluginsFile}`);
      out('A launcher started with NODE_ENV=development loads it from there. Ctrl-C stops (and removes the entry).');
      close = () => server.close();
    }
    const signal = await stop.signalled;
    note(`pluginctl dev: stopping (${signal} received).`);
    await close();
    return 0;
  } finally {
    stop.dispose();
  }
}
