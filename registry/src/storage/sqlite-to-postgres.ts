import { existsSync } from 'node:fs';
import type { BackendLogger } from '@plughost/backend-kit';
import { PluginHostError } from '@plughost/host-sdk/core';
import { FileBlobStore } from './file-blob-store.js';
import { MIGRATION_LOCK_KEY, type SqlScope } from './postgres-database.js';
import { openPostgresStore } from './postgres-registry-store.js';
import type { RegistryDatabase } from './registry-database.js';
import { openSqliteStore } from './sqlite-registry-store.js';

/**
 * Every table of a store, parents before children (foreign keys), as both schemas have them. The
 * one module that reads one store's SQL and writes the other's: a copy is about both.
 */
export const STORE_TABLES = [
  'plugins',
  'plugin_versions',
  'plugin_error_reports',
  'telemetry_salts',
  'plugin_reviews',
  'plugin_downloads_daily',
  'plugin_version_installs',
  'plugin_version_install_counts',
  'rollout_pause_lifts',
  'audit_log',
  'accounts',
  'auth_sessions',
  'auth_refresh_tokens',
  'auth_device_authorizations',
  'auth_secrets',
  'developer_keys',
  'publishing_version_facts',
  'rate_limit_hits',
] as const;

/** Rows sent to PostgreSQL per statement. */
const BATCH_ROWS = 1000;

/** Options of {@link copySqliteStoreToPostgres}. */
export interface SqliteToPostgresOptions {
  /** The SQLite store, `<REGISTRY_DATA>/registry.db`; its migrations run first, so stop its registry. */
  readonly sqliteFile: string;
  /** The target, `REGISTRY_DATABASE_URL` of the new instances: an empty database (migrated here). */
  readonly databaseUrl: string;
  /** The package files of the SQLite store (`<REGISTRY_DATA>/packages`): every version's file is looked for there. */
  readonly packagesDirectory: string;
  /** The package volume of the new instances, when it is another folder: the files are copied there. */
  readonly packagesTarget?: string;
  readonly logger: BackendLogger;
}

/** What {@link copySqliteStoreToPostgres} did. */
export interface SqliteToPostgresReport {
  /** Rows copied per table, in copy order. */
  readonly tables: readonly { readonly table: string; readonly rows: number }[];
  /** Distinct package files the copied versions name. */
  readonly packages: number;
  /** Package files copied to `packagesTarget` (0 without one). */
  readonly packagesCopied: number;
  /** Digests of package files that are not in `packagesDirectory` (their versions cannot be downloaded). */
  readonly packagesMissing: readonly string[];
}

interface ColumnType {
  readonly name: string;
  readonly type: string;
}

function refuse(message: string): never {
  throw new PluginHostError('INVALID_ARGUMENT', message);
}

/** The SQLite value of a column as `jsonb_populate_recordset` reads it for the PostgreSQL type. */
function jsonValue(value: unknown, type: string): unknown {
  if (value === null || value === undefined) return null;
  if (type === 'jsonb') {
    if (typeof value !== 'string') return value;
    try {
      return JSON.parse(value);
    } catch {
      return [];
    }
  }
  if (type === 'bytea') return `\\x${Buffer.from(value as Uint8Array).toString('hex')}`;
  if (typeof value === 'bigint') return value.toString();
  return value;
}

async function columnsOf(scope: SqlScope, table: string): Promise<ColumnType[]> {
  const { rows } = await scope.query<{ name: string; type: string }>(
    `SELECT column_name AS name, data_type AS type FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position`,
    [table],
  );
  return rows;
}

async function copyTable(source: RegistryDatabase, scope: SqlScope, table: string): Promise<number> {
  const columns = await columnsOf(scope, table);
  const names = columns.map((column) => `"${column.name}"`).join(', ');
  const insert = `INSERT INTO ${table} (${names}) SELECT ${names} FROM jsonb_populate_recordset(NULL::${table}, $1::jsonb)`;
  let batch: Record<string, unknown>[] = [];
  let copied = 0;
  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    await scope.query(insert, [JSON.stringify(batch)]);
    copied += batch.length;
    batch = [];
  };
  for (const row of source.db.prepare(`SELECT ${names} FROM ${table}`).iterate() as Iterable<Record<string, unknown>>) {
    batch.push(Object.fromEntries(columns.map((column) => [column.name, jsonValue(row[column.name], column.type)])));
    if (batch.length >= BATCH_ROWS) await flush();
  }
  await flush();
  return copied;
}

/**
 * Copies a SQLite store into an empty PostgreSQL database, in one transaction: the target gets
 * every row of every table (accounts, sessions, keys, plugins, versions, reviews, downloads,
 * reports, salts, recorded installs, pause lifts, the audit log, rate limits), or nothing. Package
 * files stay where they are, named by the SHA-256 the copied versions hold; each is looked for in
 * `packagesDirectory` and, with `packagesTarget`, copied to the new instances' package volume.
 *
 * Refuses (changing nothing) when the target holds any registry row: running it twice is safe.
 *
 * @throws PluginHostError `INVALID_ARGUMENT` when the SQLite file does not exist or the target is
 *   not empty; Error when PostgreSQL cannot be reached.
 */
export async function copySqliteStoreToPostgres(options: SqliteToPostgresOptions): Promise<SqliteToPostgresReport> {
  if (!existsSync(options.sqliteFile)) refuse(`There is no SQLite store at ${options.sqliteFile}: name the REGISTRY_DATA folder of the registry to copy`);
  const source = openSqliteStore(options.sqliteFile);
  try {
    const target = await openPostgresStore({ url: options.databaseUrl, logger: options.logger, poolSize: 2 });
    try {
      const tables = await target.database.transaction(async (scope) => {
        // No registry instance migrates meanwhile; a second copy waits and then finds rows.
        await scope.query('SELECT pg_advisory_xact_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
        for (const table of STORE_TABLES) {
          const { rows } = await scope.query<{ found: boolean }>(`SELECT EXISTS (SELECT 1 FROM ${table}) AS found`);
          if (rows[0]?.found) {
            refuse(
              `The PostgreSQL database ${target.location} is not empty (${table} has rows): the copy runs into an empty database only, ` +
                'so nothing was copied. Was it copied already?',
            );
          }
        }
        const counts: { table: string; rows: number }[] = [];
        for (const table of STORE_TABLES) {
          counts.push({ table, rows: await copyTable(source.database, scope, table) });
          options.logger.info(`Copied ${table}`, { rows: counts.at(-1)?.rows ?? 0 });
        }
        for (const table of ['plugin_error_reports', 'audit_log']) {
          await scope.query(`SELECT setval(pg_get_serial_sequence('${table}', 'id'), COALESCE((SELECT MAX(id) FROM ${table}), 0) + 1, false)`);
        }
        return counts;
      });
      const digests = (source.database.db.prepare('SELECT DISTINCT sha256 FROM plugin_versions ORDER BY sha256').all() as { sha256: string }[]).map(
        (row) => row.sha256,
      );
      const packages = new FileBlobStore(options.packagesDirectory);
      const copyTo = options.packagesTarget === undefined ? null : new FileBlobStore(options.packagesTarget);
      const missing: string[] = [];
      let copied = 0;
      for (const sha256 of digests) {
        if (!(await packages.has(sha256))) {
          missing.push(sha256);
          continue;
        }
        if (copyTo !== null && !(await copyTo.has(sha256))) {
          await copyTo.putFile(packages.pathOf(sha256));
          copied += 1;
        }
      }
      return { tables, packages: digests.length, packagesCopied: copied, packagesMissing: missing };
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}
