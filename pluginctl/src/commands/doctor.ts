import { access, constants, stat } from 'node:fs/promises';
import { keyIdOf } from '@plughost/host-sdk/core';
import { parseArgs } from '../args.js';
import { CliError } from '../cli-error.js';
import { launcherDataDirectory } from '../dev/launcher-data-directory.js';
import { PORT_OPTIONS, type PortOption, probePort } from '../port-option.js';
import {
  apiKeyFromEnv,
  lookUpDeveloperKey,
  requireStoreApi,
  resolveStoreApi,
  SessionStore,
  StoreError,
  storeFetch,
  type DeveloperKeyLookup,
} from '../store/index.js';
import { loadSigningKey } from '../store/signing-key.js';

/** `a, b, c and d`. */
function listed(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

const HELP = `Usage: pluginctl doctor [--json] [--api url]

Read-only checks of this machine for plugin work, each with a fix: Node version, the store
(reachable, apiVersion), the store session, the signing key (PLUGINCTL_SIGN_KEY) readable and
certified by the store (asked with the session or PLUGINCTL_API_KEY; nothing is uploaded), the
launcher data directory and the ports ${listed(PORT_OPTIONS.map((setting) => String(setting.fallback)))}. Exit status 1 when a check fails.

Options:
  --json      Print one JSON document {ok, checks: [{name, status, detail, fix?}]}
  --api url   Store API base (default: PLUGINCTL_STORE_API)
  -h, --help  Show this help
`;

/** One check's verdict: `warn` is worth knowing but does not fail the run. */
export interface DoctorCheck {
  readonly name: string;
  readonly status: 'ok' | 'warn' | 'fail';
  readonly detail: string;
  /** What to do about it; present unless `ok`. */
  readonly fix?: string;
}

/** The JSON document of `doctor --json`. */
export interface DoctorReport {
  readonly ok: boolean;
  /** The store API base checked, `null` when none is named. */
  readonly store: string | null;
  readonly checks: readonly DoctorCheck[];
}

function ok(name: string, detail: string): DoctorCheck {
  return { name, status: 'ok', detail };
}

function notOk(name: string, status: 'warn' | 'fail', detail: string, fix: string): DoctorCheck {
  return { name, status, detail, fix };
}

function checkNode(): DoctorCheck {
  const major = Number(process.versions.node.split('.')[0]);
  return major >= 20
    ? ok('node', `Node ${process.versions.node}`)
    : notOk('node', 'fail', `Node ${process.versions.node} is older than 20`, 'Install Node 20 or newer (https://nodejs.org or your version manager).');
}

async function checkStore(base: string): Promise<DoctorCheck> {
  try {
    const answer = await storeFetch(base, '/registry', { timeoutMs: 10_000 });
    const apiVersion = (answer.body as Record<string, unknown> | undefined)?.apiVersion;
    if (answer.status !== 200 || typeof apiVersion !== 'string') {
      return notOk(
        'store',
        'fail',
        `${base}/registry answered ${answer.status} without an apiVersion`,
        'Check that --api or PLUGINCTL_STORE_API names a store API base (ending in /api/v1).',
      );
    }
    return ok('store', `${base} answers, apiVersion ${apiVersion}`);
  } catch (error) {
    return notOk('store', 'fail', (error as Error).message, 'Start the store (npm run registry in this repository) or pass --api with its address.');
  }
}

/** A credential the store accepted just now (`GET /auth/me`): the key check signs in with it. */
interface CheckedCredential {
  readonly token: string;
  /** How the detail names it: `PLUGINCTL_API_KEY` or the saved session. */
  readonly what: string;
}

/** Why the signing key's certification could not be asked for, and what to do about it. */
interface NotChecked {
  readonly why: string;
  readonly fix: string;
  /** False when the store did not answer: then asking it anything else is pointless. */
  readonly storeAnswers: boolean;
}

/** The session check and what it leaves for the key check. */
interface SessionVerdict {
  readonly check: DoctorCheck;
  readonly credential: CheckedCredential | NotChecked;
}

const LOGIN_FIX = 'Run pluginctl login (or set PLUGINCTL_API_KEY in CI), then run pluginctl doctor again.';
const START_STORE_FIX = 'Start the store (npm run registry in this repository) or pass --api with its address, then run pluginctl doctor again.';

async function checkSession(base: string): Promise<SessionVerdict> {
  const apiKey = apiKeyFromEnv();
  const sessions = new SessionStore();
  let token = apiKey;
  let what = 'PLUGINCTL_API_KEY';
  if (token === undefined) {
    let session: Awaited<ReturnType<SessionStore['get']>>;
    try {
      session = await sessions.get(base);
    } catch (error) {
      const fix = `Delete ${sessions.path} and run pluginctl login.`;
      return {
        check: notOk('session', 'fail', (error as Error).message, fix),
        credential: { why: 'the saved sessions are unreadable', fix, storeAnswers: true },
      };
    }
    if (session === undefined) {
      return {
        check: notOk('session', 'warn', `No session for ${base}`, 'Run pluginctl login (or set PLUGINCTL_API_KEY in CI).'),
        credential: { why: 'not signed in', fix: LOGIN_FIX, storeAnswers: true },
      };
    }
    // Refreshing would rotate the tokens, a write: doctor only looks at an access token still alive.
    if (Date.parse(session.accessTokenExpiresAt) <= Date.now()) {
      return {
        check: ok('session', `Saved session until ${session.expiresAt}; its access token is renewed on the next publish`),
        credential: {
          why: 'the saved access token has expired, and doctor does not renew it',
          fix: 'Run pluginctl login for a fresh access token (or set PLUGINCTL_API_KEY), then run pluginctl doctor again.',
          storeAnswers: true,
        },
      };
    }
    token = session.accessToken;
    what = 'The saved session';
  }
  try {
    const answer = await storeFetch(base, '/auth/me', { token, timeoutMs: 10_000 });
    const username = (answer.body as Record<string, unknown> | undefined)?.username;
    if (answer.status === 200) {
      return { check: ok('session', `${what} signs in as ${typeof username === 'string' ? username : 'an account'}`), credential: { token, what } };
    }
    const fix = apiKey ? 'Check PLUGINCTL_API_KEY with the store operator.' : 'Run pluginctl login again.';
    return {
      check: notOk('session', 'fail', `The store refused ${what} (${answer.status})`, fix),
      credential: { why: `the store refused ${what}`, fix, storeAnswers: true },
    };
  } catch (error) {
    return {
      check: notOk('session', 'warn', `Not checked: ${(error as Error).message}`, 'Start the store or pass --api, then run pluginctl doctor again.'),
      credential: { why: 'the store is unreachable', fix: START_STORE_FIX, storeAnswers: false },
    };
  }
}

const NEW_KEY_FIX =
  'Make a new key (openssl genpkey -algorithm ed25519 -out key.pem; PLUGINCTL_SIGN_KEY="$(cat key.pem)") and run pluginctl publish, which certifies it. Packages signed with the revoked key are refused.';
const PUBLISH_CERTIFIES_FIX = 'pluginctl publish uploads its public key for a certificate (nothing else is needed).';

/** The verdict of the store's answer about the caller's key `keyId`. */
function keyVerdict(keyId: string, base: string, lookup: DeveloperKeyLookup, now: number): DoctorCheck {
  if (lookup.kind === 'unknown')
    return notOk('signing-key', 'warn', `Key ${keyId} is readable but not certified for your account on ${base}`, PUBLISH_CERTIFIES_FIX);
  if (lookup.revoked) return notOk('signing-key', 'fail', `Key ${keyId} was revoked on ${base} at ${lookup.revokedAt ?? 'an unknown time'}`, NEW_KEY_FIX);
  if (lookup.expiresAt !== null && Date.parse(lookup.expiresAt) <= now) {
    return notOk('signing-key', 'warn', `Key ${keyId} is readable; its certificate on ${base} expired at ${lookup.expiresAt}`, PUBLISH_CERTIFIES_FIX);
  }
  if (!lookup.certified) {
    return notOk(
      'signing-key',
      'warn',
      `Key ${keyId} is readable; its certificate on ${base} is not valid now (issued under a root key the store has replaced)`,
      "pluginctl publish certifies it again under the store's current root.",
    );
  }
  const until = lookup.expiresAt === null ? 'no expiry: valid until revoked' : `until ${lookup.expiresAt}`;
  return ok('signing-key', `Key ${keyId} is readable and certified by ${base} (since ${lookup.certifiedAt}; ${until})`);
}

/** Without a credential the public revocation list still tells a revoked key apart. */
async function keyNotChecked(keyId: string, base: string, reason: NotChecked): Promise<DoctorCheck> {
  if (reason.storeAnswers) {
    try {
      const answer = await storeFetch(base, '/developer/keys/revoked', { timeoutMs: 10_000 });
      const revoked = (answer.body as Record<string, unknown> | undefined)?.revoked;
      if (answer.status === 200 && Array.isArray(revoked) && revoked.includes(keyId)) {
        return notOk('signing-key', 'fail', `Key ${keyId} is revoked on ${base} (its revocation list says so)`, NEW_KEY_FIX);
      }
    } catch {
      // The store check reports an unreachable store.
    }
  }
  return notOk('signing-key', 'warn', `Key ${keyId} is readable; whether ${base} certified it was not checked (${reason.why})`, reason.fix);
}

/**
 * The signing key (`PLUGINCTL_SIGN_KEY`) readable and certified: asked with `GET
 * /developer/keys/<keyId>` when the session check left a credential the store accepted. Read-only:
 * the key is never uploaded (publish does that).
 */
async function checkSigningKey(base: string | undefined, session: SessionVerdict | undefined): Promise<DoctorCheck> {
  let keyId: string;
  try {
    keyId = keyIdOf((await loadSigningKey(undefined, process.env)).publicKey);
  } catch (error) {
    if (error instanceof CliError && error.code === 'SIGN_KEY_REQUIRED') {
      return notOk(
        'signing-key',
        'warn',
        'PLUGINCTL_SIGN_KEY is not set',
        'Set PLUGINCTL_SIGN_KEY (PKCS#8 PEM or base64 seed), or pass --key to pack and publish.',
      );
    }
    if (error instanceof CliError)
      return notOk('signing-key', 'fail', error.message, 'Give an unencrypted Ed25519 PKCS#8 PEM or the base64 of a 32-byte seed.');
    throw error;
  }
  if (base === undefined || session === undefined) {
    return notOk('signing-key', 'warn', `Key ${keyId} is readable; its certification was not checked (no store named)`, 'Pass --api <url>.');
  }
  const { credential } = session;
  if (!('token' in credential)) return keyNotChecked(keyId, base, credential);
  try {
    return keyVerdict(keyId, base, await lookUpDeveloperKey(base, keyId, credential.token, 10_000), Date.now());
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    const unreachable = error.status === 0;
    return keyNotChecked(keyId, base, {
      why: unreachable ? 'the store is unreachable' : error.message,
      fix: unreachable ? START_STORE_FIX : LOGIN_FIX,
      storeAnswers: !unreachable,
    });
  }
}

async function checkDataDirectory(): Promise<DoctorCheck> {
  // The folder pluginctl dev writes .dev-plugins.json into: LAUNCHER_HOME, else the demo launcher's default.
  const directory = launcherDataDirectory();
  const source = process.env.LAUNCHER_HOME?.trim() ? 'LAUNCHER_HOME' : 'default';
  const found = await stat(directory).catch(() => null);
  if (found === null) {
    return notOk(
      'launcher-data',
      'warn',
      `${directory} (${source}) does not exist yet`,
      'Start the launcher once (npm start), or set LAUNCHER_HOME to its data directory.',
    );
  }
  if (!found.isDirectory())
    return notOk('launcher-data', 'fail', `${directory} (${source}) is not a directory`, 'Point LAUNCHER_HOME at the launcher data directory.');
  try {
    await access(directory, constants.W_OK);
  } catch {
    return notOk(
      'launcher-data',
      'fail',
      `${directory} (${source}) is not writable`,
      `Fix the permissions of ${directory} (pluginctl dev writes .dev-plugins.json there).`,
    );
  }
  return ok('launcher-data', `${directory} (${source}) is writable`);
}

/** The default port of `setting` (the stub backend, the harness, the bare dev server, debug: decisions 10). */
async function checkPort(setting: PortOption): Promise<DoctorCheck> {
  const port = setting.fallback;
  const use = `${setting.what} (${setting.command} ${setting.option}, ${setting.env})`;
  const error = await probePort(port);
  if (error === null) return ok(`port-${port}`, `Port ${port} is free: ${use}`);
  return notOk(
    `port-${port}`,
    'fail',
    `Port ${port} is taken (${error.code ?? error.message}): ${use}`,
    `Stop the program listening on ${port} (lsof -i :${port}), or choose another port with the option or variable above.`,
  );
}

/** Runs every check; read-only (the port probes bind and release at once). */
export async function runDoctor(base: string | undefined): Promise<DoctorReport> {
  const noStore = notOk(
    'store',
    'warn',
    'No store named',
    'Pass --api <url> or set PLUGINCTL_STORE_API (npm run registry serves http://127.0.0.1:17421/api/v1).',
  );
  const store = base === undefined ? undefined : await checkStore(base);
  const session = base === undefined ? undefined : await checkSession(base);
  const checks = [
    checkNode(),
    ...(store === undefined || session === undefined ? [noStore] : [store, session.check]),
    await checkSigningKey(base, session),
    await checkDataDirectory(),
    ...(await Promise.all(PORT_OPTIONS.map(checkPort))),
  ];
  return { ok: checks.every((check) => check.status !== 'fail'), store: base ?? null, checks };
}

const MARKS = { ok: '✔', warn: '!', fail: '✘' } as const;

/** `pluginctl doctor [--json] [--api url]` */
export async function run(argv: readonly string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(HELP);
    return 0;
  }
  const { options, positionals } = parseArgs(argv, { valued: ['api'], flags: ['json'] });
  if (positionals.length > 0) throw new CliError('INVALID_ARGUMENT', `Unexpected argument "${positionals[0]}". Run pluginctl doctor --help.`);
  const option = typeof options.api === 'string' ? options.api : undefined;
  // The same refusal of plain http to a remote host as login: doctor sends the session's token there.
  const base = resolveStoreApi(option, process.env) === undefined ? undefined : requireStoreApi(option, process.env);
  const report = await runDoctor(base);
  if (options.json === true) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    const lines = report.checks.flatMap((check) => [
      `${MARKS[check.status]} ${check.name}: ${check.detail}`,
      ...(check.fix !== undefined ? [`    fix: ${check.fix}`] : []),
    ]);
    lines.push(report.ok ? 'No problems found.' : `${report.checks.filter((c) => c.status === 'fail').length} check(s) failed.`);
    process.stdout.write(`${lines.join('\n')}\n`);
  }
  return report.ok ? 0 : 1;
}
