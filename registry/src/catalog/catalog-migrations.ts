import type { Migration } from '../storage/registry-database.js';

/** Module name of the catalog's migrations in `schema_migrations`. */
export const CATALOG_MODULE = 'catalog';

/**
 * The catalog's schema. Times are ISO 8601 UTC strings, so text order is time order. JSON lists
 * (tags, permissions, layers) are TEXT holding a JSON array.
 */
export const CATALOG_MIGRATIONS: readonly Migration[] = [
  {
    id: '001-catalog',
    sql: `
CREATE TABLE plugins (
  id TEXT PRIMARY KEY,
  slug TEXT NOT NULL UNIQUE,
  owner_account_id TEXT NOT NULL,
  name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  category TEXT,
  tags TEXT NOT NULL DEFAULT '[]',
  icon_url TEXT,
  created_at TEXT NOT NULL,
  downloads_count INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX plugins_owner ON plugins (owner_account_id);

-- version_key orders versions by semver precedence (see version-key.ts); prerelease is 1 for a
-- pre-release. min_launcher_key is the key of min_launcher_version, for the list filter.
CREATE TABLE plugin_versions (
  id TEXT PRIMARY KEY,
  plugin_id TEXT NOT NULL REFERENCES plugins (id) ON DELETE CASCADE,
  version TEXT NOT NULL,
  version_key TEXT NOT NULL,
  prerelease INTEGER NOT NULL CHECK (prerelease IN (0, 1)),
  sha256 TEXT NOT NULL,
  size_bytes INTEGER NOT NULL,
  changelog TEXT NOT NULL DEFAULT '',
  published_at TEXT,
  min_launcher_version TEXT NOT NULL,
  min_launcher_key TEXT NOT NULL,
  permissions TEXT NOT NULL DEFAULT '[]',
  layers TEXT NOT NULL DEFAULT '[]',
  status TEXT NOT NULL CHECK (status IN ('pending_review', 'published', 'rejected')),
  rollout_percent INTEGER NOT NULL DEFAULT 100 CHECK (rollout_percent BETWEEN 0 AND 100),
  signer_key_id TEXT,
  created_at TEXT NOT NULL,
  review_note TEXT,
  UNIQUE (plugin_id, version)
);
-- "The latest published version of a plugin" is one index seek.
CREATE INDEX plugin_versions_latest ON plugin_versions (plugin_id, status, prerelease, version_key);
CREATE INDEX plugin_versions_pending ON plugin_versions (status, created_at);

-- Reports as first stored (replaced by 002-reporter-networks): matched by id_tail (the reported id
-- after its last dot), exact version and time; plugin_id is in the index too.
CREATE TABLE plugin_error_reports (
  id INTEGER PRIMARY KEY,
  plugin_id TEXT NOT NULL,
  id_tail TEXT NOT NULL,
  plugin_version TEXT NOT NULL,
  error_type TEXT NOT NULL,
  launcher_version TEXT NOT NULL,
  received_at TEXT NOT NULL
);
CREATE INDEX plugin_error_reports_pause ON plugin_error_reports (id_tail, plugin_version, received_at, plugin_id);
CREATE INDEX plugin_error_reports_received ON plugin_error_reports (received_at);

CREATE TABLE plugin_reviews (
  plugin_id TEXT NOT NULL REFERENCES plugins (id) ON DELETE CASCADE,
  account_id TEXT NOT NULL,
  author_name TEXT,
  rating INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 5),
  text TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (plugin_id, account_id)
);
CREATE INDEX plugin_reviews_newest ON plugin_reviews (plugin_id, created_at);

CREATE TABLE plugin_downloads_daily (
  plugin_id TEXT NOT NULL REFERENCES plugins (id) ON DELETE CASCADE,
  version_id TEXT NOT NULL REFERENCES plugin_versions (id) ON DELETE CASCADE,
  day TEXT NOT NULL,
  downloads INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (plugin_id, day, version_id)
);
`,
  },
  {
    // Decisions section 6: the pause counts distinct reporter networks of an exact id@version.
    // Reports are stored only for known published versions, under the plugin's manifest id, with
    // the reporter network as a salted hash. The old reports (counted one by one, matched by id
    // suffix, without a reporter) cannot be converted and are dropped; they expire within 48 hours
    // anyway.
    id: '002-reporter-networks',
    sql: `
DROP TABLE plugin_error_reports;
CREATE TABLE plugin_error_reports (
  id INTEGER PRIMARY KEY,
  plugin_id TEXT NOT NULL,
  plugin_version TEXT NOT NULL,
  reporter TEXT NOT NULL,
  error_type TEXT NOT NULL,
  launcher_version TEXT NOT NULL,
  received_at TEXT NOT NULL
);
-- The pause count is a range scan of this index that never reads the table.
CREATE INDEX plugin_error_reports_pause ON plugin_error_reports (plugin_id, plugin_version, received_at, reporter);
CREATE INDEX plugin_error_reports_received ON plugin_error_reports (received_at);

-- One random salt per UTC day (YYYY-MM-DD) for reporter hashes; a day's salt is deleted once no
-- report in the pause window can need it, after which its hashes cannot be linked to a network.
CREATE TABLE telemetry_salts (
  day TEXT PRIMARY KEY,
  salt BLOB NOT NULL
);
`,
  },
  {
    // Indexes for the list's orders, and the catalog revision. List answers are kept in memory per
    // instance and validated against this revision, read from the database on every request
    // (plugin-list-cache.ts). Triggers bump it with every change a list answer shows: a plugin's
    // listed fields, any version row, any review. Download counts are left out on purpose (every
    // download would empty every cache); the cache bounds their age instead. The bump is an
    // upsert, so a deleted row comes back.
    id: '003-catalog-listing',
    sql: `
-- The list's orders on plugin columns walk these and stop at the page (sqlite-plugin-list.ts).
CREATE INDEX plugins_by_downloads ON plugins (downloads_count DESC, slug);
CREATE INDEX plugins_by_name ON plugins (name COLLATE NOCASE, slug);
CREATE INDEX plugins_by_created ON plugins (created_at DESC, slug);

CREATE TABLE catalog_revision (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  revision INTEGER NOT NULL
);
INSERT INTO catalog_revision (id, revision) VALUES (1, 0);
CREATE TRIGGER catalog_revision_plugin_insert AFTER INSERT ON plugins
BEGIN INSERT INTO catalog_revision (id, revision) VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET revision = revision + 1; END;
CREATE TRIGGER catalog_revision_plugin_update AFTER UPDATE OF id, slug, owner_account_id, name, description, category, tags, icon_url, created_at ON plugins
BEGIN INSERT INTO catalog_revision (id, revision) VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET revision = revision + 1; END;
CREATE TRIGGER catalog_revision_plugin_delete AFTER DELETE ON plugins
BEGIN INSERT INTO catalog_revision (id, revision) VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET revision = revision + 1; END;
CREATE TRIGGER catalog_revision_version_insert AFTER INSERT ON plugin_versions
BEGIN INSERT INTO catalog_revision (id, revision) VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET revision = revision + 1; END;
CREATE TRIGGER catalog_revision_version_update AFTER UPDATE ON plugin_versions
BEGIN INSERT INTO catalog_revision (id, revision) VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET revision = revision + 1; END;
CREATE TRIGGER catalog_revision_version_delete AFTER DELETE ON plugin_versions
BEGIN INSERT INTO catalog_revision (id, revision) VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET revision = revision + 1; END;
CREATE TRIGGER catalog_revision_review_insert AFTER INSERT ON plugin_reviews
BEGIN INSERT INTO catalog_revision (id, revision) VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET revision = revision + 1; END;
CREATE TRIGGER catalog_revision_review_update AFTER UPDATE ON plugin_reviews
BEGIN INSERT INTO catalog_revision (id, revision) VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET revision = revision + 1; END;
CREATE TRIGGER catalog_revision_review_delete AFTER DELETE ON plugin_reviews
BEGIN INSERT INTO catalog_revision (id, revision) VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET revision = revision + 1; END;
`,
  },
  {
    // Issue 18: check-updates decides the pause of up to 500 candidates per request, and counting
    // distinct reporters among a version's raw reports grew with its reports (a popular version:
    // thousands of index entries per candidate). This table keeps, per id@version and reporter, the
    // time of its latest report, so "distinct reporters at or after T" is the number of rows with
    // last_report_at >= T: exact (a reporter has a report in the window exactly when its latest one
    // is), and an index range that check-updates stops reading at threshold + 1 rows. Triggers keep
    // it in the writing transaction for every writer (the intake, the re-keying of the previous
    // day's hash, a copy of the table); the purge deletes its expired rows itself (see
    // purgeReportsBefore). Filled from the reports already stored.
    id: '004-update-checks',
    sql: `
CREATE TABLE plugin_version_reporters (
  plugin_id TEXT NOT NULL,
  plugin_version TEXT NOT NULL,
  reporter TEXT NOT NULL,
  last_report_at TEXT NOT NULL,
  PRIMARY KEY (plugin_id, plugin_version, reporter)
) WITHOUT ROWID;
CREATE INDEX plugin_version_reporters_recent ON plugin_version_reporters (plugin_id, plugin_version, last_report_at);
INSERT INTO plugin_version_reporters (plugin_id, plugin_version, reporter, last_report_at)
  SELECT plugin_id, plugin_version, reporter, MAX(received_at) FROM plugin_error_reports GROUP BY plugin_id, plugin_version, reporter;

CREATE TRIGGER plugin_error_reports_reporter_added AFTER INSERT ON plugin_error_reports BEGIN
  INSERT INTO plugin_version_reporters (plugin_id, plugin_version, reporter, last_report_at)
  VALUES (NEW.plugin_id, NEW.plugin_version, NEW.reporter, NEW.received_at)
  ON CONFLICT (plugin_id, plugin_version, reporter) DO UPDATE SET last_report_at = MAX(last_report_at, excluded.last_report_at);
END;

-- A report moved to another reporter (the previous day's hash re-keyed): the new reporter's latest
-- time may grow; the old one's is looked up again only when this report was its latest (once per
-- re-keying, not per report), and its row goes when it has no report left.
CREATE TRIGGER plugin_error_reports_reporter_moved AFTER UPDATE OF reporter, plugin_id, plugin_version, received_at ON plugin_error_reports BEGIN
  INSERT INTO plugin_version_reporters (plugin_id, plugin_version, reporter, last_report_at)
  VALUES (NEW.plugin_id, NEW.plugin_version, NEW.reporter, NEW.received_at)
  ON CONFLICT (plugin_id, plugin_version, reporter) DO UPDATE SET last_report_at = MAX(last_report_at, excluded.last_report_at);
  UPDATE plugin_version_reporters
  SET last_report_at = COALESCE((
    SELECT r.received_at FROM plugin_error_reports r
    WHERE r.plugin_id = OLD.plugin_id AND r.plugin_version = OLD.plugin_version AND r.reporter = OLD.reporter
    ORDER BY r.received_at DESC LIMIT 1), '')
  WHERE plugin_id = OLD.plugin_id AND plugin_version = OLD.plugin_version AND reporter = OLD.reporter AND last_report_at <= OLD.received_at;
  DELETE FROM plugin_version_reporters
  WHERE plugin_id = OLD.plugin_id AND plugin_version = OLD.plugin_version AND reporter = OLD.reporter AND last_report_at = '';
END;
`,
  },
  {
    // Issue 26, decisions section 12: a report counts only when its network listed that
    // id@version installed in a check-updates the same UTC day, and the pause threshold grows with
    // the installed base. plugin_version_installs holds, per day, the networks (the day's salted
    // hash, as reports carry it) that listed each version: check-updates inserts, the intake looks
    // one row up, and rows older than the previous day are deleted with their salt. Its key starts
    // with the day and the network, so one request's rows are neighbours and the purge a range.
    // plugin_version_install_counts keeps each day's number of such networks per version (a
    // trigger, in the inserting statement), 8 days long: the installed base is the largest of the
    // last 7. rollout_pause_lifts holds each version's latest lift by an operator; audit_log what
    // operators did, who, when, from where and why.
    id: '005-installed-base',
    sql: `
CREATE TABLE plugin_version_installs (
  day TEXT NOT NULL,
  network TEXT NOT NULL,
  plugin_id TEXT NOT NULL,
  plugin_version TEXT NOT NULL,
  PRIMARY KEY (day, network, plugin_id, plugin_version)
) WITHOUT ROWID;

CREATE TABLE plugin_version_install_counts (
  plugin_id TEXT NOT NULL,
  plugin_version TEXT NOT NULL,
  day TEXT NOT NULL,
  networks INTEGER NOT NULL,
  PRIMARY KEY (plugin_id, plugin_version, day)
) WITHOUT ROWID;

CREATE TRIGGER plugin_version_installs_counted AFTER INSERT ON plugin_version_installs BEGIN
  INSERT INTO plugin_version_install_counts (plugin_id, plugin_version, day, networks) VALUES (NEW.plugin_id, NEW.plugin_version, NEW.day, 1)
  ON CONFLICT (plugin_id, plugin_version, day) DO UPDATE SET networks = networks + 1;
END;

CREATE TABLE rollout_pause_lifts (
  plugin_id TEXT NOT NULL,
  plugin_version TEXT NOT NULL,
  lifted_at TEXT NOT NULL,
  lifted_by TEXT NOT NULL,
  reason TEXT NOT NULL,
  reporters INTEGER NOT NULL,
  PRIMARY KEY (plugin_id, plugin_version)
) WITHOUT ROWID;

-- details is a JSON object of what the action needs remembered.
CREATE TABLE audit_log (
  id INTEGER PRIMARY KEY,
  at TEXT NOT NULL,
  actor TEXT NOT NULL,
  actor_address TEXT,
  action TEXT NOT NULL,
  subject TEXT NOT NULL,
  reason TEXT,
  details TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX audit_log_at ON audit_log (at);
`,
  },
];
