/**
 * Runs the registry suites once per store: `forEachStore(() => { ...describes... })` declares
 * them under `on sqlite` and again under `on postgres`, and the registries the support modules
 * start inside take the store of the block they run in.
 *
 * On PostgreSQL a test file uses one database (created at its first registry, dropped after its
 * last test) and empties it before each registry that starts on it. A registry started while
 * another one holds that database (two stores side by side in one test) gets a database of its
 * own; a registry closed with its data kept (a restart of the same data folder) leaves its
 * database to the next registry of that folder until the test ends.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe } from 'vitest';
import { silentLogger } from '@plughost/backend-kit';
import { databaseLocation, openRegistryStore, type RegistryStore } from '@plughost/registry';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';

/** The stores every registry suite runs on. */
export const STORES = ['sqlite', 'postgres'] as const;

export type StoreKind = (typeof STORES)[number];

/** Connections each test registry may hold: enough for the concurrency tests, few enough for many registries at once. */
export const TEST_POOL_SIZE = 4;

let current: StoreKind = 'sqlite';

/** The store of the `forEachStore` block running now (SQLite outside one). */
export function currentStore(): StoreKind {
  return current;
}

/** Declares `body` once per store, as `describe('on sqlite')` and `describe('on postgres')`. */
export function forEachStore(body: (store: StoreKind) => void): void {
  describe.each(STORES)('on %s', (store) => {
    beforeAll(() => {
      current = store;
    });
    afterEach(releaseKeptDatabases);
    afterAll(async () => {
      current = 'sqlite';
      await releaseKeptDatabases();
      await dropFileDatabase();
    });
    body(store);
  });
}

/** A database a registry uses while it runs. */
export interface DatabaseLease {
  readonly url: string;
  /** Gives it back; `keepData` leaves its records for the next registry of the same data folder in this test. */
  release(keepData: boolean): Promise<void>;
}

let fileDatabase: TestDatabase | undefined;
let fileDatabaseBusy = false;
const kept = new Map<string, TestDatabase | 'file'>();

function leaseOf(database: TestDatabase | 'file', dataDirectory: string): DatabaseLease {
  return {
    url: database === 'file' ? (fileDatabase as TestDatabase).url : database.url,
    async release(keepData) {
      if (keepData) kept.set(dataDirectory, database);
      else if (database === 'file') fileDatabaseBusy = false;
      else await database.drop();
    },
  };
}

/** A PostgreSQL database for a registry whose data folder is `dataDirectory` (see the module comment). */
export async function leaseDatabase(dataDirectory: string): Promise<DatabaseLease> {
  const reused = kept.get(dataDirectory);
  if (reused !== undefined) {
    kept.delete(dataDirectory);
    return leaseOf(reused, dataDirectory);
  }
  if (!fileDatabaseBusy) {
    fileDatabaseBusy = true;
    fileDatabase ??= await createTestDatabase();
    await emptyDatabase(fileDatabase.url);
    return leaseOf('file', dataDirectory);
  }
  return leaseOf(await createTestDatabase(), dataDirectory);
}

async function releaseKeptDatabases(): Promise<void> {
  const databases = [...kept.values()];
  kept.clear();
  for (const database of databases) {
    if (database === 'file') fileDatabaseBusy = false;
    else await database.drop();
  }
}

async function dropFileDatabase(): Promise<void> {
  const database = fileDatabase;
  fileDatabase = undefined;
  fileDatabaseBusy = false;
  await database?.drop();
}

/**
 * Deletes every row of every registry table and restarts identities (the schema and its migrations
 * stay). `DELETE` rather than `TRUNCATE`: on tables this small it is several times faster, and every
 * foreign key of the registry cascades, so the order does not matter.
 */
async function emptyDatabase(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ statement: string }>(
      `SELECT format('DELETE FROM %I;', tablename) AS statement FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'schema_migrations'
       UNION ALL
       SELECT format('SELECT setval(pg_get_serial_sequence(%L, %L), 1, false);', table_name, column_name)
       FROM information_schema.columns WHERE table_schema = current_schema() AND is_identity = 'YES'`,
    );
    if (rows.length > 0) await client.query(rows.map((row) => row.statement).join('\n'));
  } finally {
    await client.end();
  }
}

/** The `createRegistry` options that put a registry of `dataDirectory` on the current store. */
export async function storeOptionsFor(dataDirectory: string): Promise<{ options: { databaseUrl?: string; databasePoolSize?: number }; lease?: DatabaseLease }> {
  if (current === 'sqlite') return { options: {} };
  const lease = await leaseDatabase(dataDirectory);
  return { options: { databaseUrl: lease.url, databasePoolSize: TEST_POOL_SIZE }, lease };
}

/** A store of the current kind opened directly (repository tests), in its own folder or database. */
export interface TestStore {
  readonly store: RegistryStore;
  readonly folder: string;
  close(): Promise<void>;
}

export async function openTestStore(): Promise<TestStore> {
  const folder = await mkdtemp(join(tmpdir(), 'registry-store-'));
  const { options, lease } = await storeOptionsFor(folder);
  const store = await openRegistryStore({
    location: databaseLocation({ dataDirectory: folder, ...options }),
    logger: silentLogger,
    ...(options.databasePoolSize !== undefined ? { poolSize: options.databasePoolSize } : {}),
  });
  return {
    store,
    folder,
    async close() {
      await store.close();
      await lease?.release(false);
      await rm(folder, { recursive: true, force: true });
    },
  };
}

/**
 * Rows of a query on either store, for assertions about what is stored. Write the SQL with `?`
 * placeholders (SQLite's); they become `$1`, `$2`, ... on PostgreSQL.
 */
export async function storeRows<T = Record<string, unknown>>(store: RegistryStore, sql: string, parameters: readonly unknown[] = []): Promise<T[]> {
  if (store.kind === 'sqlite') {
    const statement = store.database.db.prepare(sql);
    if (!statement.reader) {
      statement.run(...parameters);
      return [];
    }
    return statement.all(...parameters) as T[];
  }
  let index = 0;
  const text = sql.replace(/\?/g, () => `$${++index}`);
  return (await store.database.query(text, parameters)).rows as T[];
}
