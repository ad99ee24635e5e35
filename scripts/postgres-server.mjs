// The PostgreSQL server a test run uses (issue 18, decisions 11), decided in this order:
// 1. REGISTRY_TEST_DATABASE_URL when set: a server of the developer's own, checked by connecting.
// 2. On Debian as root: Debian's `postgresql` (installed with apt-get when missing; a failed install
//    fails the run), as a throwaway cluster in a temporary directory (postgres-cluster.mjs).
// 3. Elsewhere: PGlite, PostgreSQL compiled to WebAssembly (postgres-pglite.mjs), with a notice;
//    `npm test` names the substitution in its summary line.
// `npm test` (scripts/test.mjs) calls ensurePostgres() before the suites; vitest's global setup
// (tests/support/global-setup-postgres.ts) starts the server when the first test asks for a database.
import { aptInstall, canRunApt } from './browser-engines.mjs';
import { findPostgresBinaries } from './postgres-cluster.mjs';

/** The variable naming a server of your own for the tests. */
export const TEST_DATABASE_URL_VARIABLE = 'REGISTRY_TEST_DATABASE_URL';
const DEBIAN_PACKAGE = 'postgresql';
// DROP DATABASE … WITH (FORCE) needs 13.
const OLDEST_MAJOR = 13;

function failure(code, message) {
  return Object.assign(new Error(message), { code });
}

/** `url` with its password replaced by `***`, for messages. */
export function redactUrl(url) {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.href;
  } catch {
    return '(not a URL)';
  }
}

/**
 * @typedef {{kind: 'external', url: string}
 *   | {kind: 'debian'}
 *   | {kind: 'pglite', reason: string, notice: string}} PostgresDecision
 */

/**
 * Which server the run uses. Pure: it neither connects nor installs (see {@link ensurePostgres}).
 *
 * @param {{env?: Record<string, string | undefined>, debianRoot?: boolean}} [options] the
 *   environment, and whether this is Debian as root (apt-get may install); both default to this
 *   process's.
 * @returns {PostgresDecision}
 */
export function decidePostgresServer({ env = process.env, debianRoot = canRunApt() } = {}) {
  const url = env[TEST_DATABASE_URL_VARIABLE]?.trim();
  if (url) return { kind: 'external', url };
  if (debianRoot) return { kind: 'debian' };
  const reason = `not Debian as root, so ${DEBIAN_PACKAGE} cannot be installed here`;
  return {
    kind: 'pglite',
    reason,
    notice:
      `The PostgreSQL tests run on PGlite (PostgreSQL compiled to WebAssembly) instead of a real server: ${reason}. ` +
      `To test on real PostgreSQL, set ${TEST_DATABASE_URL_VARIABLE} to a server of your own (as a role that may CREATE DATABASE), ` +
      `or run npm test as root on Debian.`,
  };
}

/**
 * Connects to `url` and checks that the tests can use it: PostgreSQL 13 or newer, and a role that
 * may create databases.
 *
 * @throws Error with code POSTGRES_URL_INVALID, POSTGRES_UNREACHABLE or POSTGRES_UNUSABLE, saying
 *   what to do.
 */
export async function checkPostgresUrl(url, variable = TEST_DATABASE_URL_VARIABLE) {
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    parsed = null;
  }
  if (!parsed || !['postgres:', 'postgresql:'].includes(parsed.protocol))
    throw failure('POSTGRES_URL_INVALID', `${variable} must be a postgres://user:password@host:port/database URL; it is ${JSON.stringify(url)}.`);
  const shown = redactUrl(url);
  // Imported here: loading pg takes about 0.2 s, which runs without an external server need not pay.
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  let row;
  try {
    await client.connect();
    ({
      rows: [row],
    } = await client.query(
      `SELECT current_user AS role, (SELECT rolsuper OR rolcreatedb FROM pg_roles WHERE rolname = current_user) AS may_create,
              current_setting('server_version_num')::int AS version`,
    ));
  } catch (error) {
    throw failure(
      'POSTGRES_UNREACHABLE',
      `${variable} is set, but connecting to ${shown} failed: ${error.message || error.code}. Start that server or correct the URL, or unset ${variable} to let npm test provide a server.`,
    );
  } finally {
    await client.end().catch(() => {});
  }
  if (row.version < OLDEST_MAJOR * 10_000)
    throw failure('POSTGRES_UNUSABLE', `${shown} runs PostgreSQL ${row.version}; the tests need ${OLDEST_MAJOR} or newer.`);
  if (!row.may_create)
    throw failure(
      'POSTGRES_UNUSABLE',
      `The role ${row.role} of ${shown} may not create databases; the tests make one each. Run ALTER ROLE ${row.role} CREATEDB.`,
    );
}

/**
 * Debian's server programs, installing the `postgresql` package first when they are missing.
 *
 * @throws Error with code POSTGRES_MISSING when apt-get failed: decisions 11 make that a failed run.
 */
export function ensureDebianPostgres() {
  const found = findPostgresBinaries();
  if (found) return found;
  console.error(`PostgreSQL is missing; installing Debian's ${DEBIAN_PACKAGE} (apt-get)...`);
  const ok = aptInstall([DEBIAN_PACKAGE]);
  const installed = findPostgresBinaries();
  if (!ok || !installed)
    throw failure(
      'POSTGRES_MISSING',
      `Installing ${DEBIAN_PACKAGE} with apt-get failed (see the output above). Install it by hand (apt-get install ${DEBIAN_PACKAGE}), or set ${TEST_DATABASE_URL_VARIABLE} to a server of your own.`,
    );
  return installed;
}

/**
 * The start-of-run check: decides the server, checks an external one by connecting and installs
 * Debian's when missing. Starts nothing.
 *
 * @returns {Promise<PostgresDecision & {bin?: string, major?: number}>}
 * @throws Error with a `code` (see {@link checkPostgresUrl}, {@link ensureDebianPostgres}).
 */
export async function ensurePostgres(options) {
  const decision = decidePostgresServer(options);
  if (decision.kind === 'external') await checkPostgresUrl(decision.url);
  if (decision.kind === 'debian') return { ...decision, ...ensureDebianPostgres() };
  return decision;
}

/** One line for people: the server the run uses. */
export function describePostgres(decision) {
  if (decision.kind === 'external') return `PostgreSQL: ${redactUrl(decision.url)} (${TEST_DATABASE_URL_VARIABLE})`;
  if (decision.kind === 'debian') return `PostgreSQL: Debian's ${decision.major ?? ''} (${decision.bin ?? 'not found'}), a throwaway cluster per run`;
  return `PostgreSQL: PGlite (${decision.reason})`;
}

/**
 * Starts the server that `decision` names and returns its test databases; `close()` drops them and
 * stops (and deletes) a server it started.
 *
 * @param {PostgresDecision} decision from {@link decidePostgresServer}.
 * @returns {Promise<import('./postgres-databases.mjs').TestDatabases>}
 */
export async function startPostgresServer(decision) {
  if (decision.kind === 'pglite') {
    const { pgliteTestDatabases } = await import('./postgres-pglite.mjs');
    return pgliteTestDatabases();
  }
  const { sqlTestDatabases } = await import('./postgres-databases.mjs');
  if (decision.kind === 'external') return sqlTestDatabases(decision.url);
  const { startDebianCluster } = await import('./postgres-cluster.mjs');
  const cluster = await startDebianCluster(ensureDebianPostgres());
  const databases = sqlTestDatabases(cluster.adminUrl);
  return {
    create: databases.create,
    drop: databases.drop,
    async close() {
      try {
        await databases.close();
      } finally {
        cluster.stop();
      }
    },
  };
}

// `node scripts/postgres-server.mjs`: the start-of-run check alone. Prints the server the tests
// will use (installing Debian's on Debian as root); exit 1 when the check or the install failed.
if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const decision = await ensurePostgres();
    console.log(describePostgres(decision));
    if (decision.kind === 'pglite') console.error(`POSTGRES_SUBSTITUTED: ${decision.notice}`);
  } catch (error) {
    console.error(`${error.code ?? 'POSTGRES_FAILED'}: ${error.message}`);
    process.exit(1);
  }
}
