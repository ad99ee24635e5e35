import type { PostgresCatalogRepository } from '../catalog/postgres-catalog-repository.js';
import type { SqlScope } from '../storage/postgres-database.js';
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

/**
 * The publishing module's records on PostgreSQL, the twin of `SqlitePublishingRepository`. Key
 * certification takes a transaction-scoped advisory lock per account, so two certifications of one
 * account on two instances run one after the other and the second revokes the first's key, as on
 * SQLite. An upload runs in one transaction with the catalog repository of the same database. The
 * migrations (`POSTGRES_PUBLISHING_MIGRATIONS`) run when the store opens.
 */
export class PostgresPublishingRepository implements PublishingRepository {
  constructor(
    private readonly scope: SqlScope,
    private readonly catalog: PostgresCatalogRepository,
  ) {}

  async findKey(keyId: string): Promise<DeveloperKeyRecord | null> {
    const row = (await this.scope.query<KeyRow & Record<string, unknown>>('SELECT * FROM developer_keys WHERE key_id = $1', [keyId])).rows[0];
    return row ? keyOf(row) : null;
  }

  async keysOf(accountId: string): Promise<DeveloperKeyRecord[]> {
    const { rows } = await this.scope.query<KeyRow & Record<string, unknown>>(
      'SELECT * FROM developer_keys WHERE account_id = $1 ORDER BY certified_at DESC, key_id',
      [accountId],
    );
    return rows.map(keyOf);
  }

  async certifyKey(certification: KeyCertification): Promise<CertifyKeyOutcome> {
    const { accountId, keyId, at } = certification;
    return this.scope
      .transaction(async (scope): Promise<CertifyKeyOutcome> => {
        // One certification per account at a time (the account may have no key row to lock yet).
        await scope.query(`SELECT pg_advisory_xact_lock(hashtextextended('developer_keys:' || $1, 0))`, [accountId]);
        const existing = (await scope.query<KeyRow & Record<string, unknown>>('SELECT * FROM developer_keys WHERE key_id = $1 FOR UPDATE', [keyId])).rows[0];
        if (existing) {
          const { outcome, replaceCertificate } = existingKeyOutcome(existing, certification);
          if (replaceCertificate)
            await scope.query('UPDATE developer_keys SET certificate = $2 WHERE key_id = $1', [keyId, JSON.stringify(certification.certificate)]);
          return outcome;
        }
        const { rows: revoked } = await scope.query<KeyRow & Record<string, unknown>>(
          'UPDATE developer_keys SET revoked_at = $2 WHERE account_id = $1 AND revoked_at IS NULL RETURNING *',
          [accountId, at],
        );
        // Another account certifying the same public key at once: its insert wins, this one is "taken".
        const { rows: inserted } = await scope.query<KeyRow & Record<string, unknown>>(
          `INSERT INTO developer_keys (key_id, account_id, public_key, certificate, certified_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT DO NOTHING RETURNING *`,
          [keyId, accountId, certification.publicKey, JSON.stringify(certification.certificate), at],
        );
        const key = inserted[0];
        if (!key) throw new TakenMeanwhile();
        return { kind: 'certified', key: keyOf(key), revoked: revoked.map(keyOf) };
      })
      .catch((error: unknown) => {
        // The revocations above were rolled back with the transaction.
        if (error instanceof TakenMeanwhile) return { kind: 'taken' } as const;
        throw error;
      });
  }

  async revokedKeys(): Promise<RevokedKey[]> {
    const { rows } = await this.scope.query<{ key_id: string; revoked_at: string }>(
      'SELECT key_id, revoked_at FROM developer_keys WHERE revoked_at IS NOT NULL ORDER BY revoked_at, key_id',
    );
    return rows.map((row) => ({ keyId: row.key_id, revokedAt: row.revoked_at }));
  }

  async recordUpload(upload: NewUpload): Promise<RecordedUpload> {
    return this.scope.transaction(async (scope) => {
      const catalog = this.catalog.within(scope);
      const plugin = await catalog.claimPlugin(upload.plugin);
      const version = await catalog.addVersionTo(plugin, upload.version);
      await scope.query(
        `INSERT INTO publishing_version_facts (version_id, uploaded_by, uploader_name, review_reasons, highest_risk)
         VALUES ($1, $2, $3, $4::jsonb, $5)`,
        [version.id, upload.facts.uploadedBy, upload.facts.uploaderName, JSON.stringify(upload.facts.reviewReasons), upload.facts.highestRisk],
      );
      return { plugin, version };
    });
  }

  async uploadFacts(versionIds: readonly string[]): Promise<Map<string, VersionUploadFacts>> {
    if (versionIds.length === 0) return new Map();
    const { rows } = await this.scope.query<FactsRow & Record<string, unknown>>('SELECT * FROM publishing_version_facts WHERE version_id = ANY($1::text[])', [
      [...versionIds],
    ]);
    return new Map(rows.map((row) => [row.version_id, factsOf(row)]));
  }
}

/** Rolls the certification back when another account's insert of the same key won. */
class TakenMeanwhile extends Error {}
