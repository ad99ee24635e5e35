import type Database from 'better-sqlite3';
import type { SqliteCatalogRepository } from '../catalog/sqlite-catalog-repository.js';
import type { RegistryDatabase } from '../storage/registry-database.js';
import { PUBLISHING_MIGRATIONS, PUBLISHING_MODULE } from './publishing-migrations.js';
import type {
  CertifyKeyOutcome,
  DeveloperKeyRecord,
  KeyCertification,
  NewUpload,
  PublishingRepository,
  RecordedUpload,
  RevokedKey,
  VersionUploadFacts,
} from './publishing-repository.js';
import { existingKeyOutcome, factsOf, keyOf, type FactsRow, type KeyRow } from './publishing-rows.js';

function prepareStatements(db: Database.Database) {
  return {
    keyById: db.prepare<[string], KeyRow>(`SELECT * FROM developer_keys WHERE key_id = ?`),
    keysOf: db.prepare<[string], KeyRow>(`SELECT * FROM developer_keys WHERE account_id = ? ORDER BY certified_at DESC, key_id`),
    currentKeysOf: db.prepare<[string], KeyRow>(`SELECT * FROM developer_keys WHERE account_id = ? AND revoked_at IS NULL`),
    insertKey: db.prepare(
      `INSERT INTO developer_keys (key_id, account_id, public_key, certificate, certified_at) VALUES (@keyId, @accountId, @publicKey, @certificate, @at)`,
    ),
    replaceCertificate: db.prepare<[string, string]>(`UPDATE developer_keys SET certificate = ? WHERE key_id = ?`),
    revoke: db.prepare<[string, string]>(`UPDATE developer_keys SET revoked_at = ? WHERE key_id = ? AND revoked_at IS NULL`),
    revoked: db.prepare<[], { key_id: string; revoked_at: string }>(
      `SELECT key_id, revoked_at FROM developer_keys WHERE revoked_at IS NOT NULL ORDER BY revoked_at, key_id`,
    ),
    insertFacts: db.prepare(
      `INSERT OR REPLACE INTO publishing_version_facts (version_id, uploaded_by, uploader_name, review_reasons, highest_risk)
       VALUES (@versionId, @uploadedBy, @uploaderName, @reviewReasons, @highestRisk)`,
    ),
    facts: db.prepare<[string], FactsRow>(`SELECT * FROM publishing_version_facts WHERE version_id IN (SELECT value FROM json_each(?))`),
  };
}

/**
 * The publishing module's records in the registry's SQLite database (better-sqlite3). Runs the
 * `publishing` migrations on construction; needs the catalog's tables first (upload facts follow
 * their catalog version), so construct the catalog repository of the same database before it and
 * pass it in: an upload writes through it in the same transaction.
 */
export class SqlitePublishingRepository implements PublishingRepository {
  private readonly statements: ReturnType<typeof prepareStatements>;

  constructor(
    private readonly database: RegistryDatabase,
    private readonly catalog: SqliteCatalogRepository,
  ) {
    database.migrate(PUBLISHING_MODULE, PUBLISHING_MIGRATIONS);
    this.statements = prepareStatements(database.db);
  }

  async findKey(keyId: string): Promise<DeveloperKeyRecord | null> {
    const row = this.statements.keyById.get(keyId);
    return row ? keyOf(row) : null;
  }

  async keysOf(accountId: string): Promise<DeveloperKeyRecord[]> {
    return this.statements.keysOf.all(accountId).map(keyOf);
  }

  async certifyKey(certification: KeyCertification): Promise<CertifyKeyOutcome> {
    const { accountId, keyId, at } = certification;
    return this.database.transaction((): CertifyKeyOutcome => {
      const existing = this.statements.keyById.get(keyId);
      if (existing) {
        const { outcome, replaceCertificate } = existingKeyOutcome(existing, certification);
        if (replaceCertificate) this.statements.replaceCertificate.run(JSON.stringify(certification.certificate), keyId);
        return outcome;
      }
      const previous = this.statements.currentKeysOf.all(accountId);
      for (const row of previous) this.statements.revoke.run(at, row.key_id);
      this.statements.insertKey.run({
        keyId,
        accountId,
        publicKey: certification.publicKey,
        certificate: JSON.stringify(certification.certificate),
        at,
      });
      const key = this.statements.keyById.get(keyId);
      if (!key) throw new Error('The key just certified cannot be read back');
      return { kind: 'certified', key: keyOf(key), revoked: previous.map((row) => keyOf({ ...row, revoked_at: at })) };
    });
  }

  async revokedKeys(): Promise<RevokedKey[]> {
    return this.statements.revoked.all().map((row) => ({ keyId: row.key_id, revokedAt: row.revoked_at }));
  }

  async recordUpload(upload: NewUpload): Promise<RecordedUpload> {
    return this.database.transaction((): RecordedUpload => {
      const plugin = this.catalog.claimPluginSync(upload.plugin);
      const version = this.catalog.addVersionSync({ ...upload.version, pluginId: plugin.id });
      this.statements.insertFacts.run({
        versionId: version.id,
        uploadedBy: upload.facts.uploadedBy,
        uploaderName: upload.facts.uploaderName,
        reviewReasons: JSON.stringify(upload.facts.reviewReasons),
        highestRisk: upload.facts.highestRisk,
      });
      return { plugin, version };
    });
  }

  async uploadFacts(versionIds: readonly string[]): Promise<Map<string, VersionUploadFacts>> {
    if (versionIds.length === 0) return new Map();
    const rows = this.statements.facts.all(JSON.stringify(versionIds));
    return new Map(rows.map((row) => [row.version_id, factsOf(row)]));
  }
}
