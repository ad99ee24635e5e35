import type { Migration } from '../storage/migration.js';

/**
 * The publishing module's tables on PostgreSQL, as `PUBLISHING_MIGRATIONS` has them on SQLite
 * (see there), with compared text in `COLLATE "C"` and the review reasons as `jsonb`. The catalog's
 * tables must exist first (upload facts follow their catalog version).
 */
export const POSTGRES_PUBLISHING_MIGRATIONS: readonly Migration[] = [
  {
    id: '001-developer-keys-version-facts',
    sql: `
CREATE TABLE developer_keys (
  key_id TEXT COLLATE "C" PRIMARY KEY,
  account_id TEXT COLLATE "C" NOT NULL,
  public_key TEXT COLLATE "C" NOT NULL UNIQUE,
  certificate TEXT NOT NULL,
  certified_at TEXT COLLATE "C" NOT NULL,
  revoked_at TEXT COLLATE "C"
);
CREATE INDEX developer_keys_account ON developer_keys (account_id, revoked_at);
CREATE INDEX developer_keys_revoked ON developer_keys (revoked_at) WHERE revoked_at IS NOT NULL;

CREATE TABLE publishing_version_facts (
  version_id TEXT COLLATE "C" PRIMARY KEY REFERENCES plugin_versions (id) ON DELETE CASCADE,
  uploaded_by TEXT COLLATE "C" NOT NULL,
  uploader_name TEXT,
  review_reasons JSONB NOT NULL DEFAULT '[]',
  highest_risk TEXT NOT NULL CHECK (highest_risk IN ('normal', 'warning', 'danger'))
);
`,
  },
];
