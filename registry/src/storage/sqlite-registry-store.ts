import { SqliteAuthRepository } from '../auth/sqlite-auth-repository.js';
import { SqliteCatalogRepository } from '../catalog/sqlite-catalog-repository.js';
import { SqliteRateLimitRepository } from '../limits/sqlite-rate-limit-repository.js';
import { SqlitePublishingRepository } from '../publishing/sqlite-publishing-repository.js';
import { RegistryDatabase } from './registry-database.js';
import type { SqliteRegistryStore } from './registry-store.js';

/**
 * The embedded store in the SQLite file `file` (created when missing). The repositories apply
 * their migrations as they open, the catalog's first (publishing refers to its versions).
 */
export function openSqliteStore(file: string): SqliteRegistryStore {
  const database = new RegistryDatabase(file);
  try {
    const catalog = new SqliteCatalogRepository(database);
    const auth = new SqliteAuthRepository(database);
    const publishing = new SqlitePublishingRepository(database, catalog);
    const limits = new SqliteRateLimitRepository(database);
    return {
      kind: 'sqlite',
      database,
      catalog,
      auth,
      publishing,
      limits,
      location: file,
      async close() {
        database.close();
      },
    };
  } catch (error) {
    database.close();
    throw error;
  }
}
