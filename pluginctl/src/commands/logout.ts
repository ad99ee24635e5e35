import { parseArgs } from '../args.js';
import { CliError } from '../cli-error.js';
import { requireStoreApi, SessionStore, storeFetch, storeFailure } from '../store/index.js';

const HELP = `Usage: pluginctl logout [--api url]

Revokes the saved session on the store (POST /auth/logout) and deletes it from
$XDG_CONFIG_HOME/pluginctl/sessions.json.

Options:
  --api url   Store API base (default: PLUGINCTL_STORE_API)
  -h, --help  Show this help
`;

/** `pluginctl logout [--api url]` */
export async function run(argv: readonly string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(HELP);
    return 0;
  }
  const { options, positionals } = parseArgs(argv, { valued: ['api'] });
  if (positionals.length > 0) throw new CliError('INVALID_ARGUMENT', `Unexpected argument "${positionals[0]}". Run pluginctl logout --help.`);
  const base = requireStoreApi(typeof options.api === 'string' ? options.api : undefined, process.env);
  const sessions = new SessionStore();
  // Expired sessions are revoked too: their refresh token may still be alive on the store.
  const session = await sessions.get(base, new Date(0));
  if (session === undefined) {
    process.stdout.write(`Not signed in to ${base}; nothing to do.\n`);
    return 0;
  }
  // Revoking the refresh token ends the whole session on the store (RFC 7009 style: 204 even when
  // the store no longer knows it). The local copy is deleted only once the store confirmed, so a
  // failed revocation can be retried; an unreachable store leaves both and says so.
  const answer = await storeFetch(base, '/auth/logout', { json: { refresh_token: session.refreshToken } });
  if (answer.status !== 204 && answer.status !== 200) {
    throw storeFailure('POST /auth/logout', answer, `The session was kept in ${sessions.path}; run pluginctl logout again later.`);
  }
  await sessions.delete(base);
  process.stdout.write(`Signed out of ${base}: the session was revoked on the store and deleted here.\n`);
  return 0;
}
