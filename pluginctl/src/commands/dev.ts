import { parseArgs } from '../args.js';
import { CliError } from '../cli-error.js';

const HELP = `Usage: pluginctl dev [--port n]

Runs a plugin under development: inside a launcher's source tree (a folder with plugins-dev/) the
debug harness (stub backend on 5100, harness on 1420); in a plugin project a bare dev server
(default port 5173, or PLUGINCTL_DEV_PORT) that the launcher loads the plugin from.

Not available in this version yet: the dev server and the debug harness are still to come.
Meanwhile, install the plugin folder into the launcher (its development install,
POST /api/plugins/install with {"sourceDir": "<folder>"}) and watch it with \`pluginctl debug\`.

Options:
  --port n    Port of the bare dev server (default 5173; 0 picks a free port; ignored inside
              the repository)
  -h, --help  Show this help
`;

/** `pluginctl dev`: routed and parsed; the dev server and harness are not built yet. */
export async function run(argv: readonly string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(HELP);
    return 0;
  }
  const { options, positionals } = parseArgs(argv, { valued: ['port'] });
  if (positionals.length > 0) throw new CliError('INVALID_ARGUMENT', `Unexpected argument "${positionals[0]}". Run \`pluginctl dev --help\`.`);
  const port = typeof options.port === 'string' ? options.port : undefined;
  if (port !== undefined && (!/^\d+$/.test(port) || Number(port) > 65_535)) {
    throw new CliError('INVALID_ARGUMENT', `--port must be a port number from 0 to 65535, got "${port}".`);
  }
  throw new CliError(
    'NOT_IMPLEMENTED',
    'pluginctl dev is not available in this version yet: its dev server and the debug harness are still to come. ' +
      'Meanwhile install the plugin folder with the launcher\'s development install (POST /api/plugins/install {"sourceDir": "<folder>"}) ' +
      'and stream its logs with `pluginctl debug`.',
  );
}
