/** Row shapes of the publishing tables and their conversion to records, the same for both stores. */
import { PERMISSION_RISKS, type Certificate, type PermissionRisk } from '@plughost/host-sdk/core';
import { stringList, type JsonList } from '../catalog/catalog-rows.js';
import type { CertifyKeyOutcome, DeveloperKeyRecord, KeyCertification, VersionUploadFacts } from './publishing-repository.js';

export interface KeyRow {
  key_id: string;
  account_id: string;
  public_key: string;
  certificate: string;
  certified_at: string;
  revoked_at: string | null;
}

export interface FactsRow {
  version_id: string;
  uploaded_by: string;
  uploader_name: string | null;
  review_reasons: JsonList;
  highest_risk: string;
}

export function keyOf(row: KeyRow): DeveloperKeyRecord {
  return {
    keyId: row.key_id,
    accountId: row.account_id,
    publicKey: row.public_key,
    certificate: JSON.parse(row.certificate) as Certificate,
    certifiedAt: row.certified_at,
    revokedAt: row.revoked_at,
  };
}

export function factsOf(row: FactsRow): VersionUploadFacts {
  const risk = (PERMISSION_RISKS as readonly string[]).includes(row.highest_risk) ? (row.highest_risk as PermissionRisk) : 'danger';
  return {
    versionId: row.version_id,
    uploadedBy: row.uploaded_by,
    uploaderName: row.uploader_name,
    reviewReasons: stringList(row.review_reasons),
    highestRisk: risk,
  };
}

/**
 * What certifying `certification` means when a key with its id is stored already (`existing`):
 * the outcome, and whether the stored certificate must be replaced by the new one (the root key
 * changed since, so the stored certificate no longer verifies anywhere).
 */
export function existingKeyOutcome(
  existing: KeyRow,
  certification: KeyCertification,
): { readonly outcome: CertifyKeyOutcome; readonly replaceCertificate: boolean } {
  // A different key with the same 8-byte id is as good as taken: ids must name one key.
  if (existing.account_id !== certification.accountId || existing.public_key !== certification.publicKey) {
    return { outcome: { kind: 'taken' }, replaceCertificate: false };
  }
  const stored = keyOf(existing);
  if (existing.revoked_at !== null) return { outcome: { kind: 'revoked', key: stored }, replaceCertificate: false };
  if (stored.certificate.issuer.keyId === certification.certificate.issuer.keyId)
    return { outcome: { kind: 'current', key: stored }, replaceCertificate: false };
  return { outcome: { kind: 'current', key: { ...stored, certificate: certification.certificate } }, replaceCertificate: true };
}
