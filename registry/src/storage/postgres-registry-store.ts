import type { BackendLogger } from '@plughost/backend-kit';
import { POSTGRES_AUTH_MIGRATIONS } from '../auth/postgres-auth-migrations.js';
import { PostgresAuthRepository } from '../auth/postgres-auth-repository.js';
import { POSTGRES_CATALOG_MIGRATIONS } from '../catalog/postgres-catalog-migrations.js';
import { PostgresCatalogRepository } from '../catalog/postgres-catalog-repository.js';
import { POSTGRES_LIMITS_MIGRATIONS } from '../limits/limits-migrations.js';
import { PostgresRateLimitRepository } from '../limits/postgres-rate-limit-repository.js';
import { POSTGRES_PUBLISHING_MIGRATIONS } from '../publishing/postgres-publishing-migrations.js';
import { PostgresPublishingRepository } from '../publishing/postgres-publishing-repository.js';
import type { ModuleMigrations } from './migration.js';
import { PostgresDatabase } from './postgres-database.js';
import type { PostgresRegistryStore } from './registry-store.js';

/** Every module's PostgreSQL migrations, in the order they apply (publishing refers to the catalog). */
export const POSTGRES_MIGRATIONS: readonly ModuleMigrations[] = [
  { module: 'catalog', migrations: POSTGRES_CATALOG_MIGRATIONS },
  { module: 'auth', migrations: POSTGRES_AUTH_MIGRATIONS },
  { module: 'publishing', migrations: POSTGRES_PUBLISHING_MIGRATIONS },
  { module: 'limits', migrations: POSTGRES_LIMITS_MIGRATIONS },
];

/** Options of {@link openPostgresStore}. */
export interface PostgresStoreOptions {
  readonly url: string;
  readonly poolSize?: number;
  readonly logger: BackendLogger;
}

/**
 * The store in the PostgreSQL database `url`: connects, applies pending migrations (logged) and
 * returns the repositories over the pool.
 *
 * @throws Error naming the database without its password when it cannot be reached or migrated.
 */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<PostgresRegistryStore> {
  const database = new PostgresDatabase(options);
  try {
    const applied = await database.migrate(POSTGRES_MIGRATIONS);
    if (applied.length > 0) options.logger.info(`Database migrated: ${applied.join(', ')}`, { database: database.location });
  } catch (error) {
    await database.close().catch(() => undefined);
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`The PostgreSQL database ${database.location} (REGISTRY_DATABASE_URL) cannot be used: ${reason}. Check the URL and that the server runs.`, {
      cause: error,
    });
  }
  const catalog = new PostgresCatalogRepository(database);
  return {
    kind: 'postgres',
    database,
    catalog,
    auth: new PostgresAuthRepository(database),
    publishing: new PostgresPublishingRepository(database, catalog),
    limits: new PostgresRateLimitRepository(database),
    location: database.location,
    close: () => database.close(),
  };
}
