import { parseArgs } from '../args.js';
import { checkFolder } from '../checks/folder-check.js';
import { printFolderReport } from '../checks/print-report.js';
import { CliError } from '../cli-error.js';

const HELP = `Usage: pluginctl lint [--json]

Checks the plugin project in this folder: everything pluginctl verify checks (manifest,
permission minimality, unbounded loops) plus relative imports without a file extension and
files named by entry.* and contributes.overlay.file that do not exist. Exits with 1 when an
error is found.

Options:
  --json      Print {ok, errors, warnings, findings} as one JSON document
  -h, --help  Show this help
`;

/** `pluginctl lint [--json]` */
export async function run(argv: readonly string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(HELP);
    return 0;
  }
  const { options, positionals } = parseArgs(argv, { flags: ['json'] });
  if (positionals.length > 0) throw new CliError('INVALID_ARGUMENT', `Unexpected argument "${positionals[0]}". Run pluginctl lint --help.`);
  const report = await checkFolder(process.cwd(), { lint: true });
  if (options.json === true) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else printFolderReport(report, 'lint');
  return report.ok ? 0 : 1;
}
