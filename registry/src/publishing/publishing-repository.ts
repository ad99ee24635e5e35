import type { Certificate, PermissionRisk } from '@plughost/host-sdk/core';

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

/**
 * Storage of the publishing module's own records (developer keys, revocations, upload facts),
 * behind an interface so a PostgreSQL implementation can replace
 * {@link SqlitePublishingRepository}. Plugins and versions live in the catalog
 * (`CatalogRepository`).
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
  saveUploadFacts(facts: VersionUploadFacts): Promise<void>;
  /** The facts of these versions (versions without facts are absent from the map). */
  uploadFacts(versionIds: readonly string[]): Promise<Map<string, VersionUploadFacts>>;
}
