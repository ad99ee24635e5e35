import { createServer } from 'node:net';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, postgresServerKind, type PostgresServerKind } from '../../support/postgres.js';
import {
  decidePostgresServer,
  ensurePostgres,
  type PostgresScriptError,
  startPostgresServer,
  TEST_DATABASE_URL_VARIABLE,
  type TestDatabases,
} from '../../support/postgres-scripts.js';

/** A loopback port nothing listens on: bound by us a moment ago, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  // A dropped database ends its sessions; that must not crash the test process.
  client.on('error', () => {});
  await client.connect();
  return client;
}

/** Everything a fresh test database must offer, on any kind of server. */
async function expectUsableEmptyDatabase(url: string, kind: PostgresServerKind): Promise<void> {
  const first = await connect(url);
  const second = await connect(url);
  try {
    const { rows: relations } = await first.query(
      `SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
        WHERE s.nspname NOT IN ('pg_catalog', 'information_schema') AND s.nspname NOT LIKE 'pg_toast%'`,
    );
    expect(relations[0].n).toBe(0);

    await first.query('BEGIN');
    await first.query('CREATE TABLE versions (id int PRIMARY KEY)');
    await first.query('INSERT INTO versions VALUES (1)');
    await first.query('SELECT pg_advisory_xact_lock(18)');
    await first.query('COMMIT');
    await first.query('BEGIN');
    await first.query('INSERT INTO versions VALUES (2)');
    await first.query('ROLLBACK');
    expect((await second.query('SELECT array_agg(id) AS ids FROM versions')).rows[0].ids).toEqual([1]);

    expect((await first.query('SELECT pg_try_advisory_lock(18) AS got')).rows[0].got).toBe(true);
    // PGlite's connections share one session, so its session locks exclude nobody (see postgres.ts).
    expect((await second.query('SELECT pg_try_advisory_lock(18) AS got')).rows[0].got).toBe(kind === 'pglite');
    await first.query('SELECT pg_advisory_unlock_all()');
  } finally {
    await first.end().catch(() => {});
    await second.end().catch(() => {});
  }
}

async function expectGone(url: string, kind: PostgresServerKind): Promise<void> {
  // A real server says the database does not exist; a dropped PGlite database's socket is closed.
  await expect(connect(url)).rejects.toMatchObject({ code: kind === 'pglite' ? 'ECONNREFUSED' : '3D000' });
}

describe('decidePostgresServer', () => {
  it('uses REGISTRY_TEST_DATABASE_URL when it is set, whatever the machine', () => {
    const url = 'postgres://tester:secret@db.example:5432/plughost';
    expect(decidePostgresServer({ env: { [TEST_DATABASE_URL_VARIABLE]: url }, debianRoot: true })).toEqual({ kind: 'external', url });
    expect(decidePostgresServer({ env: { [TEST_DATABASE_URL_VARIABLE]: url }, debianRoot: false })).toEqual({ kind: 'external', url });
  });

  it("uses Debian's server on Debian as root", () => {
    expect(decidePostgresServer({ env: { [TEST_DATABASE_URL_VARIABLE]: ' ' }, debianRoot: true })).toEqual({ kind: 'debian' });
  });

  it('falls back to PGlite elsewhere, with a notice saying why and how to test on real PostgreSQL', () => {
    const decision = decidePostgresServer({ env: {}, debianRoot: false });
    expect(decision.kind).toBe('pglite');
    if (decision.kind !== 'pglite') return;
    expect(decision.reason).toContain('not Debian as root');
    expect(decision.notice).toContain('PGlite');
    expect(decision.notice).toContain(`set ${TEST_DATABASE_URL_VARIABLE} to a server of your own`);
  });
});

describe('ensurePostgres with REGISTRY_TEST_DATABASE_URL', () => {
  it('fails clearly when the server does not answer, without showing the password', async () => {
    const url = `postgres://tester:s3cret-password@127.0.0.1:${await closedPort()}/plughost`;
    const failure = (await ensurePostgres({ env: { [TEST_DATABASE_URL_VARIABLE]: url } }).catch((error: unknown) => error)) as PostgresScriptError;
    expect(failure.code).toBe('POSTGRES_UNREACHABLE');
    expect(failure.message).toContain(`${TEST_DATABASE_URL_VARIABLE} is set, but connecting to postgres://tester:***@127.0.0.1:`);
    expect(failure.message).toContain('ECONNREFUSED');
    expect(failure.message).not.toContain('s3cret-password');
  });

  it('refuses a value that is not a postgres:// URL', async () => {
    await expect(ensurePostgres({ env: { [TEST_DATABASE_URL_VARIABLE]: 'mysql://localhost/x' } })).rejects.toMatchObject({ code: 'POSTGRES_URL_INVALID' });
  });

  it("makes and drops its test databases on a server that answers (here: one of this run's databases)", async () => {
    const host = await createTestDatabase();
    let databases: TestDatabases | undefined;
    try {
      const decision = await ensurePostgres({ env: { [TEST_DATABASE_URL_VARIABLE]: host.url } });
      expect(decision.kind).toBe('external');
      // PGlite ignores the database a connection names: there, every "database" of the host is the host.
      if (postgresServerKind() === 'pglite') return;
      databases = await startPostgresServer(decision);
      const made = await databases.create();
      expect(made.url).not.toBe(host.url);
      await expectUsableEmptyDatabase(made.url, 'external');
      await databases.drop(made.name);
      await expectGone(made.url, 'external');
    } finally {
      await databases?.close();
      await host.drop();
    }
  });
});

describe('createTestDatabase', () => {
  it('gives an empty database of its own that takes transactions and advisory locks, and drop removes it', async () => {
    const kind = postgresServerKind();
    const database = await createTestDatabase();
    const other = await createTestDatabase();
    try {
      expect(database.url).toMatch(/^postgres:\/\//);
      await expectUsableEmptyDatabase(database.url, kind);
      // The table made above is not in the other database.
      const client = await connect(other.url);
      const { rows } = await client.query(`SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'versions'`);
      await client.end();
      expect(rows[0].n).toBe(0);
    } finally {
      await database.drop();
      await other.drop();
    }
    await expectGone(database.url, kind);
    await database.drop();
  });
});

// Every machine tests the PGlite fallback too, not only the machines that need it.
describe('PGlite test databases', () => {
  let databases: TestDatabases | undefined;
  afterAll(async () => {
    await databases?.close();
  });

  // The first PGlite of a process runs initdb in WebAssembly: several seconds on a busy machine.
  it('each database is a PGlite of its own that takes transactions and advisory locks, and drop removes it', { timeout: 90_000 }, async () => {
    databases = await startPostgresServer(decidePostgresServer({ env: {}, debianRoot: false }));
    const made = await databases.create();
    await expectUsableEmptyDatabase(made.url, 'pglite');
    const second = await databases.create();
    const client = await connect(second.url);
    const { rows } = await client.query(`SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'versions'`);
    await client.end();
    expect(rows[0].n).toBe(0);
    await databases.drop(made.name);
    await expectGone(made.url, 'pglite');
  });
});
