import { CliError } from './cli-error.js';
import { PLUGINCTL_VERSION } from './version.js';

/** What every command module exports. */
export interface CommandModule {
  /** Runs the command with the words after its name; resolves to the exit status. */
  run(argv: readonly string[]): Promise<number>;
}

interface CommandEntry {
  summary: string;
  usage: string;
  load: () => Promise<CommandModule>;
}

// Commands are imported lazily so `--help` and `--version` stay instant.
const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  create: {
    summary: 'Scaffold a plugin project from a template (react, html, lib, wasm).',
    usage: 'create <id> [-t|--template react|html|lib|wasm]',
    load: () => import('./commands/create.js'),
  },
  dev: {
    summary: 'Run plugins with hot reload: the debug harness (plugins-dev/) or a bare dev server.',
    usage: 'dev [--port n] [--stub-port n] [--harness-port n] [--mock f] [--build-cmd c] [--launcher-home d]',
    load: () => import('./commands/dev.js'),
  },
  pack: {
    summary: 'Build and write a deterministic .plugpkg, optionally signed.',
    usage: 'pack [--out-dir d] [--version v] [--key k] [--skip-build] [--json]',
    load: () => import('./commands/pack.js'),
  },
  verify: {
    summary: 'Check a plugin folder, or a package: manifest, archive safety and signature.',
    usage: 'verify [--package <file>] [--root-key <base64>] [--dev-root] [--api url] [--json]',
    load: () => import('./commands/verify.js'),
  },
  lint: {
    summary: 'Verify plus imports and files the manifest names.',
    usage: 'lint [--json]',
    load: () => import('./commands/lint.js'),
  },
  bump: {
    summary: "Raise the plugin's version in manifest.json (and package.json).",
    usage: 'bump major|minor|patch [--version v]',
    load: () => import('./commands/bump.js'),
  },
  publish: {
    summary: 'Sign and upload a version to the store.',
    usage: 'publish [--key k] [--slug s] [--changelog c] [--api url] [--org-id id] [--package f] [--skip-build] [--yes]',
    load: () => import('./commands/publish.js'),
  },
  login: {
    summary: 'Sign in to a store (device flow) and keep the session.',
    usage: 'login [--api url]',
    load: () => import('./commands/login.js'),
  },
  logout: {
    summary: 'Sign out: revoke the store session and delete it here.',
    usage: 'logout [--api url]',
    load: () => import('./commands/logout.js'),
  },
  doctor: {
    summary: 'Check this machine for plugin work (read-only).',
    usage: 'doctor [--json] [--api url]',
    load: () => import('./commands/doctor.js'),
  },
  debug: {
    summary: 'Start the launcher with a remote-debugging port and stream its logs.',
    usage: 'debug [--port n] [--launcher p] [--no-logs] [--no-kill] [--headless]',
    load: () => import('./commands/debug.js'),
  },
};

export function helpText(): string {
  const width = Math.max(...Object.values(COMMANDS).map((c) => c.usage.length));
  const lines = Object.values(COMMANDS).map((c) => `  ${c.usage.padEnd(width)}  ${c.summary}`);
  return [
    `pluginctl ${PLUGINCTL_VERSION} - build, check and sign launcher plugins`,
    '',
    'Usage: pluginctl <command> [options]',
    '',
    'Commands:',
    ...lines,
    '',
    'Options:',
    '  -h, --help     Show this help',
    '  -v, --version  Show the version',
    '',
    'Errors are printed as CODE: message; the exit status is 1 for a failed check, 2 for bad usage.',
    '',
  ].join('\n');
}

/** Runs pluginctl with `argv` (without `node` and the script path); resolves to the exit status. */
export async function main(argv: readonly string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === '-h' || first === '--help' || first === 'help') {
    process.stdout.write(helpText());
    return 0;
  }
  if (first === '-v' || first === '--version') {
    process.stdout.write(`${PLUGINCTL_VERSION}\n`);
    return 0;
  }
  const command = Object.hasOwn(COMMANDS, first) ? COMMANDS[first] : undefined;
  if (!command) {
    throw new CliError('UNKNOWN_COMMAND', `Unknown command "${first}". Run \`pluginctl --help\` for the list.`);
  }
  const module = await command.load();
  return module.run(rest);
}

/** Prints an error as `CODE: message` on stderr. */
export function reportError(error: unknown): void {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`${typeof code === 'string' ? code : 'INTERNAL_ERROR'}: ${message}\n`);
}
