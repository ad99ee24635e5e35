import type { Migration } from '../storage/registry-database.js';

/** Module name of the publishing module's migrations in `schema_migrations`. */
export const PUBLISHING_MODULE = 'publishing';

/**
 * The publishing module's own tables. Times are ISO 8601 UTC strings (text order is time order).
 * Accounts are referenced by id without a foreign key, as the catalog does, so the module does not
 * depend on the auth module's schema; version facts follow their catalog version (cascade).
 *
 * - `developer_keys`: every developer public key the root certified, with its account and its
 *   certificate (`signature.cert.json` as JSON text). A key id is certified for one account only,
 *   ever; `revoked_at` is set when the account certifies another key, and never cleared.
 * - `publishing_version_facts`: what the review queue shows beside a version and the catalog does
 *   not keep (who uploaded it, why it needs review, its highest risk).
 */
export const PUBLISHING_MIGRATIONS: readonly Migration[] = [
  {
    id: '001-developer-keys-version-facts',
    sql: `
CREATE TABLE developer_keys (
  key_id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  public_key TEXT NOT NULL UNIQUE,
  certificate TEXT NOT NULL,
  certified_at TEXT NOT NULL,
  revoked_at TEXT
);
CREATE INDEX developer_keys_account ON developer_keys (account_id, revoked_at);
CREATE INDEX developer_keys_revoked ON developer_keys (revoked_at) WHERE revoked_at IS NOT NULL;

CREATE TABLE publishing_version_facts (
  version_id TEXT PRIMARY KEY REFERENCES plugin_versions (id) ON DELETE CASCADE,
  uploaded_by TEXT NOT NULL,
  uploader_name TEXT,
  review_reasons TEXT NOT NULL DEFAULT '[]',
  highest_risk TEXT NOT NULL CHECK (highest_risk IN ('normal', 'warning', 'danger'))
);
`,
  },
];
