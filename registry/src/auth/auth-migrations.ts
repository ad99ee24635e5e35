import type { Migration } from '../storage/registry-database.js';

/**
 * The schema of the `auth` module. Times are ISO 8601 UTC strings (`Date.toISOString()`, which
 * sort as text). `accounts` is the table other modules reference for ownership; the rest is
 * private to this module. No table holds a token: refresh tokens and device codes are stored as
 * their SHA-256, passwords as scrypt hashes.
 */
export const AUTH_MIGRATIONS: readonly Migration[] = [
  {
    id: '001-accounts-sessions-devices',
    sql: `
      CREATE TABLE accounts (
        id TEXT PRIMARY KEY,
        username TEXT NOT NULL COLLATE NOCASE UNIQUE,
        password_hash TEXT,
        kind TEXT NOT NULL CHECK (kind IN ('user', 'api')),
        created_at TEXT NOT NULL
      );

      CREATE TABLE auth_sessions (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        revoked_at TEXT
      );
      CREATE INDEX auth_sessions_expires_at ON auth_sessions (expires_at);

      CREATE TABLE auth_refresh_tokens (
        id TEXT PRIMARY KEY,
        family_id TEXT NOT NULL REFERENCES auth_sessions (id) ON DELETE CASCADE,
        account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
        token_hash TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        used_at TEXT,
        revoked_at TEXT
      );
      CREATE INDEX auth_refresh_tokens_family_id ON auth_refresh_tokens (family_id);

      CREATE TABLE auth_device_authorizations (
        id TEXT PRIMARY KEY,
        device_code_hash TEXT NOT NULL UNIQUE,
        user_code TEXT NOT NULL UNIQUE,
        client_id TEXT,
        status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'denied')),
        account_id TEXT REFERENCES accounts (id) ON DELETE CASCADE,
        interval_seconds INTEGER NOT NULL,
        last_polled_at TEXT,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        decided_at TEXT,
        exchanged_at TEXT
      );
      CREATE INDEX auth_device_authorizations_expires_at ON auth_device_authorizations (expires_at);

      CREATE TABLE auth_secrets (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
    `,
  },
];
