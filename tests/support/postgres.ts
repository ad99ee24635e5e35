/**
 * PostgreSQL for tests: an empty database of its own for each caller, on the run's server
 * (`tests/support/global-setup-postgres.ts` decides and starts it; docs/testing.md says how).
 *
 * Kinds of server, and what a test may rely on:
 * - `external` (`REGISTRY_TEST_DATABASE_URL`) and `debian` (a throwaway cluster of Debian's
 *   package): a real server. Each database is a `CREATE DATABASE` of its own, reached as a role
 *   that owns it (a superuser on `debian`); `drop()` drops it, ending sessions left open.
 * - `pglite`: each database is a PGlite instance of its own behind a socket server, so databases
 *   are as isolated as on a real server. But the connections to one database share PGlite's single
 *   session: session advisory locks do not exclude one connection from another (transaction-level
 *   locks inside a transaction do serialize, because transactions never interleave there), `SET`
 *   and temporary tables are seen by every connection, and statements of other connections wait
 *   while one connection is in a transaction. A pool works; code that keeps a transaction open on
 *   one connection while it waits for a query on another deadlocks. The first database of a run
 *   takes about 5 s, later ones under 1 s.
 *
 * @example
 * ```ts
 * const database = await createTestDatabase();
 * try {
 *   const pool = new pg.Pool({ connectionString: database.url });
 *   // ...
 *   await pool.end();
 * } finally {
 *   await database.drop();
 * }
 * ```
 */
import { inject } from 'vitest';
import type { ProvidedPostgres } from './global-setup-postgres.js';
import type { PostgresServerKind } from './postgres-scripts.js';

export type { PostgresServerKind } from './postgres-scripts.js';

/** A database made for one test. */
export interface TestDatabase {
  /** `postgres://` URL of the database, with the credentials to use it. */
  readonly url: string;
  /** Drops the database (closing its connections); calling it again does nothing. */
  drop(): Promise<void>;
}

function provided(): ProvidedPostgres {
  const postgres = inject('plughostPostgres');
  if (!postgres)
    throw new Error('No PostgreSQL was provided: run the tests with vitest.config.ts, whose globalSetup (tests/support/global-setup-postgres.ts) provides it.');
  return postgres;
}

async function failed(response: Response, what: string): Promise<Error> {
  const body = (await response.json().catch(() => null)) as { error?: { code: string; message: string } } | null;
  const error = new Error(`${what}: ${body?.error ? `${body.error.code}: ${body.error.message}` : `HTTP ${response.status}`}`);
  return Object.assign(error, { code: body?.error?.code ?? 'POSTGRES_FAILED' });
}

/**
 * A new empty database on the run's PostgreSQL server, which starts with the first call of a run.
 *
 * @throws Error with the server's `code` (POSTGRES_START_FAILED, ...) when the server could not be
 *   started or the database not made.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const { serviceUrl } = provided();
  const response = await fetch(`${serviceUrl}/databases`, { method: 'POST' });
  if (!response.ok) throw await failed(response, 'Could not create a test database');
  const { name, url } = (await response.json()) as { name: string; url: string };
  let dropped: Promise<void> | undefined;
  return {
    url,
    drop() {
      dropped ??= fetch(`${serviceUrl}/databases/${encodeURIComponent(name)}`, { method: 'DELETE' }).then(async (answer) => {
        if (!answer.ok) throw await failed(answer, `Could not drop the test database ${name}`);
      });
      return dropped;
    },
  };
}

/** Where the run's PostgreSQL comes from: `REGISTRY_TEST_DATABASE_URL`, Debian's package, or PGlite. */
export function postgresServerKind(): PostgresServerKind {
  return provided().kind;
}
