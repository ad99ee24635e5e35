import type { Certificate, PermissionRisk } from '@plughost/host-sdk/core';
import type { CatalogPlugin, CatalogVersion, NewPlugin, NewVersion } from '../catalog/catalog-types.js';

/** A developer public key the store root certified. Times are ISO 8601 strings (UTC). */
export interface DeveloperKeyRecord {
  /** Key id of the public key (16 lower-case hex characters). */
  readonly keyId: string;
  /** The account the key is certified for (the certificate's `developerId`). */
  readonly accountId: string;
  /** Base64 of the raw 32-byte public key. */
  readonly publicKey: string;
  /** The issued certificate, exactly as `signature.cert.json` holds it. */
  readonly certificate: Certificate;
  readonly certifiedAt: string;
  /** When the account certified another key (which revoked this one); `null` while current. */
  readonly revokedAt: string | null;
}

/** A revoked key id and when it was revoked. */
export interface RevokedKey {
  readonly keyId: string;
  readonly revokedAt: string;
}

/** Input of {@link PublishingRepository.certifyKey}. */
export interface KeyCertification {
  readonly accountId: string;
  readonly keyId: string;
  readonly publicKey: string;
  /** The certificate issued for this key and account now. */
  readonly certificate: Certificate;
  /** Now: the certification time, and the revocation time of the account's previous key. */
  readonly at: string;
}

/**
 * The outcome of {@link PublishingRepository.certifyKey}:
 * - `certified`: the key is new; it is stored as the account's current key and the account's
 *   previous current key (if any) is revoked (`revoked`);
 * - `current`: the key is already the account's current key; nothing is revoked. Its stored
 *   certificate is replaced by the new one only when the root key changed since (other issuer).
 * - `revoked`: the key was this account's and has been revoked; it stays revoked;
 * - `taken`: the key is certified for another account.
 */
export type CertifyKeyOutcome =
  | { readonly kind: 'certified'; readonly key: DeveloperKeyRecord; readonly revoked: readonly DeveloperKeyRecord[] }
  | { readonly kind: 'current'; readonly key: DeveloperKeyRecord }
  | { readonly kind: 'revoked'; readonly key: DeveloperKeyRecord }
  | { readonly kind: 'taken' };

/** What the review queue shows beside a version, recorded at upload. */
export interface VersionUploadFacts {
  /** The catalog version id. */
  readonly versionId: string;
  /** The account that uploaded it. */
  readonly uploadedBy: string;
  /** That account's username at upload time, when known. */
  readonly uploaderName: string | null;
  /** Why the version was not published at once; empty for an automatic publication. */
  readonly reviewReasons: readonly string[];
  /** The highest risk of its permissions and render mode. */
  readonly highestRisk: PermissionRisk;
}

/** Input of {@link PublishingRepository.recordUpload}: everything one accepted upload writes. */
export interface NewUpload {
  /** The plugin record, created when the manifest id has none yet (else only its owner is checked). */
  readonly plugin: NewPlugin;
  readonly version: Omit<NewVersion, 'pluginId'>;
  readonly facts: Omit<VersionUploadFacts, 'versionId'>;
}

/** What {@link PublishingRepository.recordUpload} wrote. */
export interface RecordedUpload {
  readonly plugin: CatalogPlugin;
  readonly version: CatalogVersion;
}

/**
 * Storage of the publishing module's own records (developer keys, revocations, upload facts),
 * implemented by `SqlitePublishingRepository` and `PostgresPublishingRepository`. Plugins and
 * versions live in the catalog (`CatalogRepository`); an upload writes both in one transaction
 * through {@link PublishingRepository.recordUpload}, so each implementation works beside its own
 * store's catalog repository.
 */
export interface PublishingRepository {
  /** The key with this id, whatever its account and state, or `null`. */
  findKey(keyId: string): Promise<DeveloperKeyRecord | null>;
  /** Every key certified for the account, newest first. */
  keysOf(accountId: string): Promise<DeveloperKeyRecord[]>;
  /** Certifies a key for an account atomically (see {@link CertifyKeyOutcome}). */
  certifyKey(certification: KeyCertification): Promise<CertifyKeyOutcome>;
  /** Every revoked key, oldest revocation first. */
  revokedKeys(): Promise<RevokedKey[]>;
  /**
   * Records an accepted upload in one transaction: claims the plugin record (created when
   * missing), adds the version, saves its upload facts. Nothing is written when any step fails.
   *
   * @throws RegistryError `plugin_id_taken` (another account owns the id), `slug_taken` (a new
   *   plugin's slug belongs to another plugin), `version_exists` (also when a concurrent upload of
   *   the same version, on any registry instance, won).
   */
  recordUpload(upload: NewUpload): Promise<RecordedUpload>;
  /** The facts of these versions (versions without facts are absent from the map). */
  uploadFacts(versionIds: readonly string[]): Promise<Map<string, VersionUploadFacts>>;
}
