import { join } from 'node:path';
import { PluginHostError } from '@plughost/host-sdk/core';

/** Where a registry keeps its records: the embedded SQLite file, or a PostgreSQL database. */
export type DatabaseLocation = { readonly kind: 'sqlite'; readonly file: string } | { readonly kind: 'postgres'; readonly url: string };

const POSTGRES_URL = /^postgres(?:ql)?:\/\//i;

function refuse(message: string): never {
  throw new PluginHostError('INVALID_ARGUMENT', message);
}

/**
 * The database `REGISTRY_DATABASE_URL` (`databaseUrl`) selects: a `postgres://` or
 * `postgresql://` URL is PostgreSQL; unset or empty, the embedded SQLite file
 * `<dataDirectory>/registry.db`.
 *
 * @throws PluginHostError `INVALID_ARGUMENT` for any other URL.
 */
export function databaseLocation(options: { readonly databaseUrl?: string | undefined; readonly dataDirectory: string }): DatabaseLocation {
  const url = options.databaseUrl?.trim() ?? '';
  if (url === '') return { kind: 'sqlite', file: join(options.dataDirectory, 'registry.db') };
  if (!POSTGRES_URL.test(url)) {
    refuse(
      `databaseUrl (REGISTRY_DATABASE_URL) must be a postgres:// or postgresql:// URL such as postgres://registry@db.example.com:5432/registry ` +
        `(got "${describeDatabaseUrl(url)}"); leave it unset to use the embedded SQLite database in dataDirectory (REGISTRY_DATA)`,
    );
  }
  return { kind: 'postgres', url };
}

/** A database URL fit for logs and messages: its password replaced by `***`. */
export function describeDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    // Query parameters may carry a password too (`?password=`): drop them all.
    parsed.search = '';
    return parsed.href;
  } catch {
    return url.replace(/\/\/[^@/]*@/, '//***@');
  }
}

/** Most connections one instance may hold: far above a useful pool, far below PostgreSQL's limits being the problem. */
const POOL_SIZE_MAX = 1000;

/**
 * Checks `databasePoolSize` (`REGISTRY_DATABASE_POOL_SIZE`).
 *
 * @throws PluginHostError `INVALID_ARGUMENT` unless it is a whole number from 1 to 1000.
 */
export function checkPoolSize(poolSize: number | undefined): void {
  if (poolSize === undefined) return;
  if (!(Number.isSafeInteger(poolSize) && poolSize >= 1 && poolSize <= POOL_SIZE_MAX)) {
    refuse(`databasePoolSize (REGISTRY_DATABASE_POOL_SIZE) must be a whole number from 1 to ${POOL_SIZE_MAX} (got ${poolSize})`);
  }
}
