import type { BackendLogger } from '@plughost/backend-kit';
import type { AuthRepository } from '../auth/auth-repository.js';
import type { CatalogRepository } from '../catalog/catalog-repository.js';
import type { RateLimitRepository } from '../limits/rate-limit-repository.js';
import type { PublishingRepository } from '../publishing/publishing-repository.js';
import type { DatabaseLocation } from './database-url.js';
import type { PostgresDatabase } from './postgres-database.js';
import { openPostgresStore } from './postgres-registry-store.js';
import type { RegistryDatabase } from './registry-database.js';
import { openSqliteStore } from './sqlite-registry-store.js';

/** The repositories every store provides: one interface per module, one implementation per database. */
export interface StoreRepositories {
  readonly catalog: CatalogRepository;
  readonly auth: AuthRepository;
  readonly publishing: PublishingRepository;
  /** The shared rate limits (login throttling, registrations, device codes, wrong user codes). */
  readonly limits: RateLimitRepository;
  /** Where the records live, for logs: the SQLite file, or the PostgreSQL URL without its password. */
  readonly location: string;
  /** Closes the database (the PostgreSQL pool waits for queries in flight). */
  close(): Promise<void>;
}

/** The embedded store: one SQLite file, for one registry process. */
export interface SqliteRegistryStore extends StoreRepositories {
  readonly kind: 'sqlite';
  readonly database: RegistryDatabase;
}

/** A PostgreSQL database that several registry instances can share. */
export interface PostgresRegistryStore extends StoreRepositories {
  readonly kind: 'postgres';
  readonly database: PostgresDatabase;
}

/** A registry's records, on SQLite or PostgreSQL. */
export type RegistryStore = SqliteRegistryStore | PostgresRegistryStore;

/** Options of {@link openRegistryStore}. */
export interface OpenRegistryStoreOptions {
  readonly location: DatabaseLocation;
  /** PostgreSQL only: the pool size (`REGISTRY_DATABASE_POOL_SIZE`). */
  readonly poolSize?: number;
  readonly logger: BackendLogger;
}

/**
 * Opens the store `location` names and brings its schema up to date: SQLite migrates module by
 * module as each repository opens; PostgreSQL applies every pending migration in one transaction
 * under an advisory lock (instances starting at once migrate once).
 *
 * @throws Error naming the database (never its password) when PostgreSQL cannot be reached or a
 *   migration fails.
 */
export async function openRegistryStore(options: OpenRegistryStoreOptions): Promise<RegistryStore> {
  if (options.location.kind === 'sqlite') return openSqliteStore(options.location.file);
  return openPostgresStore({ url: options.location.url, logger: options.logger, ...(options.poolSize !== undefined ? { poolSize: options.poolSize } : {}) });
}
