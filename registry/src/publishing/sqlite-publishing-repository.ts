import type Database from 'better-sqlite3';
import { PERMISSION_RISKS, type Certificate, type PermissionRisk } from '@plughost/host-sdk/core';
import type { RegistryDatabase } from '../storage/registry-database.js';
import { PUBLISHING_MIGRATIONS, PUBLISHING_MODULE } from './publishing-migrations.js';
import type { CertifyKeyOutcome, DeveloperKeyRecord, KeyCertification, PublishingRepository, RevokedKey, VersionUploadFacts } from './publishing-repository.js';

interface KeyRow {
  key_id: string;
  account_id: string;
  public_key: string;
  certificate: string;
  certified_at: string;
  revoked_at: string | null;
}

interface FactsRow {
  version_id: string;
  uploaded_by: string;
  uploader_name: string | null;
  review_reasons: string;
  highest_risk: string;
}

function keyOf(row: KeyRow): DeveloperKeyRecord {
  return {
    keyId: row.key_id,
    accountId: row.account_id,
    publicKey: row.public_key,
    certificate: JSON.parse(row.certificate) as Certificate,
    certifiedAt: row.certified_at,
    revokedAt: row.revoked_at,
  };
}

function stringList(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
}

function factsOf(row: FactsRow): VersionUploadFacts {
  const risk = (PERMISSION_RISKS as readonly string[]).includes(row.highest_risk) ? (row.highest_risk as PermissionRisk) : 'danger';
  return {
    versionId: row.version_id,
    uploadedBy: row.uploaded_by,
    uploaderName: row.uploader_name,
    reviewReasons: stringList(row.review_reasons),
    highestRisk: risk,
  };
}

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
 * their catalog version), so construct the catalog repository before it.
 */
export class SqlitePublishingRepository implements PublishingRepository {
  private readonly statements: ReturnType<typeof prepareStatements>;

  constructor(private readonly database: RegistryDatabase) {
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
        // A different key with the same 8-byte id is as good as taken: ids must name one key.
        if (existing.account_id !== accountId || existing.public_key !== certification.publicKey) return { kind: 'taken' };
        if (existing.revoked_at !== null) return { kind: 'revoked', key: keyOf(existing) };
        const stored = keyOf(existing);
        if (stored.certificate.issuer.keyId === certification.certificate.issuer.keyId) return { kind: 'current', key: stored };
        // The root key changed since: the stored certificate no longer verifies anywhere.
        this.statements.replaceCertificate.run(JSON.stringify(certification.certificate), keyId);
        return { kind: 'current', key: { ...stored, certificate: certification.certificate } };
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

  async saveUploadFacts(facts: VersionUploadFacts): Promise<void> {
    this.statements.insertFacts.run({
      versionId: facts.versionId,
      uploadedBy: facts.uploadedBy,
      uploaderName: facts.uploaderName,
      reviewReasons: JSON.stringify(facts.reviewReasons),
      highestRisk: facts.highestRisk,
    });
  }

  async uploadFacts(versionIds: readonly string[]): Promise<Map<string, VersionUploadFacts>> {
    if (versionIds.length === 0) return new Map();
    const rows = this.statements.facts.all(JSON.stringify(versionIds));
    return new Map(rows.map((row) => [row.version_id, factsOf(row)]));
  }
}
