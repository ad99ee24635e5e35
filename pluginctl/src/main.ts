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
  verify: {
    summary: 'Check a package: manifest, archive safety and signature.',
    usage: 'verify --package <file> [--root-key <base64>] [--json]',
    load: () => import('./commands/verify.js'),
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
    'Errors are printed as CODE: message and exit with status 1.',
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
