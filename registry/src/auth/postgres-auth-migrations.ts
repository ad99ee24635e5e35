import type { Migration } from '../storage/migration.js';

/**
 * The `auth` module's schema on PostgreSQL: the tables of `AUTH_MIGRATIONS` (SQLite), with times
 * as ISO 8601 UTC text in `COLLATE "C"` (byte order is time order) and usernames unique without
 * case through an index on `lower(username)` (SQLite's `COLLATE NOCASE`).
 */
export const POSTGRES_AUTH_MIGRATIONS: readonly Migration[] = [
  {
    id: '001-accounts-sessions-devices',
    sql: `
CREATE TABLE accounts (
  id TEXT COLLATE "C" PRIMARY KEY,
  username TEXT NOT NULL,
  password_hash TEXT,
  kind TEXT NOT NULL CHECK (kind IN ('user', 'api')),
  created_at TEXT COLLATE "C" NOT NULL
);
CREATE UNIQUE INDEX accounts_username ON accounts (lower(username));

CREATE TABLE auth_sessions (
  id TEXT COLLATE "C" PRIMARY KEY,
  account_id TEXT COLLATE "C" NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  created_at TEXT COLLATE "C" NOT NULL,
  expires_at TEXT COLLATE "C" NOT NULL,
  revoked_at TEXT COLLATE "C"
);
CREATE INDEX auth_sessions_expires_at ON auth_sessions (expires_at);

CREATE TABLE auth_refresh_tokens (
  id TEXT COLLATE "C" PRIMARY KEY,
  family_id TEXT COLLATE "C" NOT NULL REFERENCES auth_sessions (id) ON DELETE CASCADE,
  account_id TEXT COLLATE "C" NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  token_hash TEXT COLLATE "C" NOT NULL UNIQUE,
  created_at TEXT COLLATE "C" NOT NULL,
  expires_at TEXT COLLATE "C" NOT NULL,
  used_at TEXT COLLATE "C",
  revoked_at TEXT COLLATE "C"
);
CREATE INDEX auth_refresh_tokens_family_id ON auth_refresh_tokens (family_id);

CREATE TABLE auth_device_authorizations (
  id TEXT COLLATE "C" PRIMARY KEY,
  device_code_hash TEXT COLLATE "C" NOT NULL UNIQUE,
  user_code TEXT COLLATE "C" NOT NULL UNIQUE,
  client_id TEXT,
  status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'denied')),
  account_id TEXT COLLATE "C" REFERENCES accounts (id) ON DELETE CASCADE,
  interval_seconds INTEGER NOT NULL,
  last_polled_at TEXT COLLATE "C",
  created_at TEXT COLLATE "C" NOT NULL,
  expires_at TEXT COLLATE "C" NOT NULL,
  decided_at TEXT COLLATE "C",
  exchanged_at TEXT COLLATE "C"
);
CREATE INDEX auth_device_authorizations_expires_at ON auth_device_authorizations (expires_at);

CREATE TABLE auth_secrets (
  name TEXT COLLATE "C" PRIMARY KEY,
  value TEXT NOT NULL,
  created_at TEXT NOT NULL
);
`,
  },
];
