import { parseArgs } from '../args.js';
import { CliError } from '../cli-error.js';
import { apiKeyFromEnv, defaultDeviceFlowIo, deviceLogin, requireStoreApi, SessionStore, sessionFrom } from '../store/index.js';

const HELP = `Usage: pluginctl login [--api url]

Signs in to a store with the device flow (RFC 8628): shows a code to approve on the store's
page and keeps the session (30 days) in $XDG_CONFIG_HOME/pluginctl/sessions.json (mode 0600).

Options:
  --api url   Store API base (default: PLUGINCTL_STORE_API)
  -h, --help  Show this help

With PLUGINCTL_API_KEY set, no login is needed (CI mode).
`;

/** `pluginctl login [--api url]` */
export async function run(argv: readonly string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(HELP);
    return 0;
  }
  const { options, positionals } = parseArgs(argv, { valued: ['api'] });
  if (positionals.length > 0) throw new CliError('INVALID_ARGUMENT', `Unexpected argument "${positionals[0]}". Run pluginctl login --help.`);
  const base = requireStoreApi(typeof options.api === 'string' ? options.api : undefined, process.env);
  if (apiKeyFromEnv() !== undefined) {
    process.stdout.write(`PLUGINCTL_API_KEY is set: commands use it for ${base} and no login is needed (CI mode).\n`);
    return 0;
  }
  const say = (line: string): void => {
    process.stdout.write(`${line}\n`);
  };
  const tokens = await deviceLogin(base, defaultDeviceFlowIo(say));
  const sessions = new SessionStore();
  const session = sessionFrom(tokens, new Date());
  await sessions.set(base, session);
  say(`Signed in to ${base}. The session lasts until ${session.expiresAt.slice(0, 10)} and is kept in ${sessions.path}.`);
  return 0;
}
