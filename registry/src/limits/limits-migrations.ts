import type { Migration } from '../storage/migration.js';

/** Module name of the shared rate limits' migrations in `schema_migrations`. */
export const LIMITS_MODULE = 'limits';

/** The shared rate limits' table on SQLite: one row per counted attempt, times in epoch milliseconds. */
export const LIMITS_MIGRATIONS: readonly Migration[] = [
  {
    id: '001-rate-limit-hits',
    sql: `
CREATE TABLE rate_limit_hits (
  bucket TEXT NOT NULL,
  key TEXT NOT NULL,
  at INTEGER NOT NULL
);
CREATE INDEX rate_limit_hits_key ON rate_limit_hits (bucket, key, at);
CREATE INDEX rate_limit_hits_at ON rate_limit_hits (bucket, at);
`,
  },
];

/** The same table on PostgreSQL. */
export const POSTGRES_LIMITS_MIGRATIONS: readonly Migration[] = [
  {
    id: '001-rate-limit-hits',
    sql: `
CREATE TABLE rate_limit_hits (
  bucket TEXT COLLATE "C" NOT NULL,
  key TEXT COLLATE "C" NOT NULL,
  at BIGINT NOT NULL
);
CREATE INDEX rate_limit_hits_key ON rate_limit_hits (bucket, key, at);
CREATE INDEX rate_limit_hits_at ON rate_limit_hits (bucket, at);
`,
  },
];
