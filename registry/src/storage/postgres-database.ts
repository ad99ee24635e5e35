import pg, { type PoolClient, type QueryResult, type QueryResultRow } from 'pg';
import type { BackendLogger } from '@plughost/backend-kit';
import type { ModuleMigrations } from './migration.js';
import { describeDatabaseUrl } from './database-url.js';

/** Connections a registry instance keeps to PostgreSQL when `databasePoolSize` is not set. */
export const DEFAULT_DATABASE_POOL_SIZE = 10;

/**
 * The key of the advisory lock migrations run under (`plughost` in ASCII as a bigint): every
 * registry instance of one database takes the same lock, so instances starting at once apply each
 * migration once.
 */
export const MIGRATION_LOCK_KEY = '8100605209574499188';

/**
 * Where a PostgreSQL repository runs its SQL: the pool (each query on any free connection) or one
 * connection inside a transaction. {@link SqlScope.transaction} on a transaction's scope runs the
 * work inside that same transaction, so repository methods compose into one atomic write.
 */
export interface SqlScope {
  query<R extends QueryResultRow = QueryResultRow>(text: string, values?: readonly unknown[]): Promise<QueryResult<R>>;
  /** Runs `work` in one transaction (committed when it resolves, rolled back when it throws). */
  transaction<T>(work: (scope: SqlScope) => Promise<T>): Promise<T>;
}

// pg answers bigint (int8) and numeric as strings, since they may not fit a double. The registry's
// bigints (counts, sizes, millisecond times, identities) stay far below 2^53, and its numerics are
// averages: numbers are what its types say.
const INT8_OID = 20;
const NUMERIC_OID = 1700;
const registryTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (format !== 'binary' && oid === INT8_OID) return (value: string) => Number(value);
    if (format !== 'binary' && oid === NUMERIC_OID) return (value: string) => Number.parseFloat(value);
    return format === 'binary' ? pg.types.getTypeParser(oid, 'binary') : pg.types.getTypeParser(oid, 'text');
  }) as pg.CustomTypesConfig['getTypeParser'],
};

/** Options of {@link PostgresDatabase}. */
export interface PostgresDatabaseOptions {
  /** `REGISTRY_DATABASE_URL`: `postgres://user:password@host:5432/database` (libpq's URL form, `?sslmode=` and the like included). */
  readonly url: string;
  /** `REGISTRY_DATABASE_POOL_SIZE`: connections this instance keeps at most (default {@link DEFAULT_DATABASE_POOL_SIZE}). */
  readonly poolSize?: number;
  readonly logger: BackendLogger;
}

/** A scope bound to one connection that is inside a transaction already. */
class TransactionScope implements SqlScope {
  constructor(private readonly client: PoolClient) {}

  query<R extends QueryResultRow = QueryResultRow>(text: string, values?: readonly unknown[]): Promise<QueryResult<R>> {
    return this.client.query<R>(text, values as unknown[] | undefined);
  }

  transaction<T>(work: (scope: SqlScope) => Promise<T>): Promise<T> {
    return work(this);
  }
}

/**
 * The registry's PostgreSQL database: a `pg` connection pool, transactions, and the versioned
 * migrations of every module, applied at start in one transaction under an advisory lock (so
 * several instances starting at once apply each migration once, and a failed migration leaves
 * nothing half done). Each module's `postgres-*` repository is the only code that writes SQL for
 * its tables.
 *
 * @example
 * ```ts
 * const database = new PostgresDatabase({ url: process.env.REGISTRY_DATABASE_URL!, logger: consoleLogger });
 * await database.migrate([{ module: 'catalog', migrations: POSTGRES_CATALOG_MIGRATIONS }]);
 * const { rows } = await database.query('SELECT COUNT(*) AS total FROM plugins');
 * await database.close();
 * ```
 */
export class PostgresDatabase implements SqlScope {
  readonly pool: pg.Pool;
  /** The URL without its password, for messages. */
  readonly location: string;

  constructor(options: PostgresDatabaseOptions) {
    const poolSize = options.poolSize ?? DEFAULT_DATABASE_POOL_SIZE;
    this.location = describeDatabaseUrl(options.url);
    this.pool = new pg.Pool({
      connectionString: options.url,
      max: poolSize,
      types: registryTypes,
      application_name: 'plughost-registry',
      connectionTimeoutMillis: 10_000,
      idleTimeoutMillis: 30_000,
    });
    // An idle connection that breaks (a server restart, a network cut) is dropped from the pool and
    // replaced on demand; unhandled, the error would end the process.
    this.pool.on('error', (error) => options.logger.warn('A PostgreSQL connection of the pool failed; it is replaced', { error: error.message }));
  }

  query<R extends QueryResultRow = QueryResultRow>(text: string, values?: readonly unknown[]): Promise<QueryResult<R>> {
    return this.pool.query<R>(text, values as unknown[] | undefined);
  }

  async transaction<T>(work: (scope: SqlScope) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const result = await work(new TransactionScope(client));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: unknown) => {
        // The connection is unusable: it must not go back to the pool.
        broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
      });
      throw error;
    } finally {
      client.release(broken);
    }
  }

  /**
   * Applies the migrations of `modules` (in order) that `schema_migrations` does not list yet, all
   * in one transaction holding the advisory lock {@link MIGRATION_LOCK_KEY}; returns what it
   * applied as `module/id`. An instance that waited for the lock finds the work done.
   */
  async migrate(modules: readonly ModuleMigrations[]): Promise<string[]> {
    return this.transaction(async (scope) => {
      // The lock comes first: concurrent `CREATE TABLE IF NOT EXISTS` can still collide.
      await scope.query('SELECT pg_advisory_xact_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
      await scope.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
        module TEXT COLLATE "C" NOT NULL,
        id TEXT COLLATE "C" NOT NULL,
        applied_at TEXT NOT NULL,
        PRIMARY KEY (module, id)
      )`);
      const { rows } = await scope.query<{ module: string; id: string }>('SELECT module, id FROM schema_migrations');
      const applied = new Set(rows.map((row) => `${row.module}/${row.id}`));
      const done: string[] = [];
      for (const { module, migrations } of modules) {
        for (const migration of migrations) {
          const name = `${module}/${migration.id}`;
          if (applied.has(name)) continue;
          await scope.query(migration.sql);
          await scope.query('INSERT INTO schema_migrations (module, id, applied_at) VALUES ($1, $2, $3)', [module, migration.id, new Date().toISOString()]);
          done.push(name);
        }
      }
      return done;
    });
  }

  /** Closes every connection (waits for queries in flight). */
  async close(): Promise<void> {
    await this.pool.end();
  }
}
