import {
  decodePublicKey,
  bytesToBase64,
  isKeyId,
  isPluginHostError,
  issueCertificate,
  keyIdOf,
  signRevocationList,
  type Certificate,
  type RevocationList,
} from '@plughost/host-sdk/core';
import type { PublishingRepository } from './publishing-repository.js';
import type { RootKey } from './root-key.js';
import { RegistryError, invalidArgument, notFound } from '../errors/registry-error.js';

/** The answer of `POST /developer/keys`. */
export interface CertifiedKey {
  readonly keyId: string;
  /** The certificate object, exactly as `signature.cert.json` holds it. */
  readonly certificate: Certificate;
  /** True when the key was certified now, false when it already was the account's current key. */
  readonly created: boolean;
  /** Key ids this certification revoked (the account's previous key), empty when none. */
  readonly revoked: readonly string[];
}

/** The answer of `GET /developer/keys/<keyId>`: one of the caller's keys and its state. */
export interface DeveloperKeyStatus {
  readonly keyId: string;
  /**
   * True when a package signed with this key is accepted now: the key is not revoked and its
   * certificate comes from the store's current root key. False for a revoked key, and for a key
   * certified under a root the store has since replaced (`POST /developer/keys` certifies it again).
   */
  readonly certified: boolean;
  /** When the store first certified the key (ISO 8601, UTC). */
  readonly certifiedAt: string;
  /**
   * When the certificate stops being valid. Always `null` here: this store's certificates carry no
   * expiry and a key ends only by revocation; the field is there for stores whose certificates expire.
   */
  readonly expiresAt: string | null;
  readonly revoked: boolean;
  /** When the account certified another key, which revoked this one; `null` while not revoked. */
  readonly revokedAt: string | null;
  /** The stored certificate, exactly as `signature.cert.json` holds it. */
  readonly certificate: Certificate;
}

/** How long one signed revocation list is served before it is signed again with a fresh `issuedAt`. */
export const REVOCATION_LIST_MAX_AGE_MS = 60_000;

interface SignedList {
  readonly list: RevocationList;
  readonly fingerprint: string;
  readonly issuedAtMs: number;
}

/**
 * Developer keys and their revocation (decisions sections 5 and 6): certifies public keys with the
 * store root key, revokes an account's previous key when it certifies a new one, and signs the
 * revocation list.
 *
 * The certificate's `developerId` is the account's id, not its username: an id is never reused, so
 * a certificate can never come to name someone else (the launcher lets an update replace a plugin
 * when both certificates name the same `developerId`).
 */
export class DeveloperKeys {
  private signed: SignedList | null = null;

  constructor(
    private readonly repository: PublishingRepository,
    private readonly root: RootKey,
    private readonly now: () => Date,
  ) {}

  /**
   * Certifies `publicKey` (base64 of the raw 32 bytes) for the account. A key that is already the
   * account's current key gets its stored certificate back and revokes nothing.
   *
   * @throws RegistryError `invalid_key` (malformed, weak, not on the curve, revoked earlier),
   *   `key_taken` (certified for another account).
   */
  async certify(accountId: string, publicKey: unknown): Promise<CertifiedKey> {
    if (typeof publicKey !== 'string' || publicKey === '') {
      throw new RegistryError('invalid_key', 'Send {publicKey}: the base64 of the raw 32-byte Ed25519 public key');
    }
    let bytes: Uint8Array;
    try {
      bytes = decodePublicKey(publicKey, 'public key');
    } catch (error) {
      if (isPluginHostError(error)) throw new RegistryError('invalid_key', error.message);
      throw error;
    }
    const keyId = keyIdOf(bytes);
    const certificate = issueCertificate({ rootSigner: this.root.signer, publicKey: bytes, developerId: accountId });
    const outcome = await this.repository.certifyKey({
      accountId,
      keyId,
      publicKey: bytesToBase64(bytes),
      certificate,
      at: this.now().toISOString(),
    });
    switch (outcome.kind) {
      case 'taken':
        throw new RegistryError('key_taken', `The key ${keyId} is certified for another account; generate a key pair of your own`);
      case 'revoked':
        throw new RegistryError(
          'invalid_key',
          `The key ${keyId} was revoked at ${outcome.key.revokedAt ?? 'an earlier certification'} and stays revoked; generate a new key pair`,
        );
      case 'current':
        return { keyId, certificate: outcome.key.certificate, created: false, revoked: [] };
      case 'certified':
        return { keyId, certificate: outcome.key.certificate, created: true, revoked: outcome.revoked.map((key) => key.keyId) };
    }
  }

  /**
   * One key of the account, for `GET /developer/keys/<keyId>`. A key certified for another
   * account is answered exactly as an unknown one, so nobody learns which keys others hold.
   *
   * @throws RegistryError `invalid_argument` when `keyId` is not a key id (16 lower-case hex
   *   characters), `not_found` when the account holds no such key.
   */
  async statusOf(accountId: string, keyId: string): Promise<DeveloperKeyStatus> {
    if (!isKeyId(keyId)) throw invalidArgument(`${JSON.stringify(keyId)} is not a key id: 16 lower-case hex characters`);
    const key = await this.repository.findKey(keyId);
    if (key === null || key.accountId !== accountId) {
      throw notFound(`Your account holds no key ${keyId}; POST /developer/keys certifies a public key for your account`);
    }
    const revoked = key.revokedAt !== null;
    return {
      keyId,
      certified: !revoked && key.certificate.issuer.keyId === this.root.keyId,
      certifiedAt: key.certifiedAt,
      expiresAt: null,
      revoked,
      revokedAt: key.revokedAt,
      certificate: key.certificate,
    };
  }

  /** The ids of every revoked key. */
  async revokedKeyIds(): Promise<Set<string>> {
    return new Set((await this.repository.revokedKeys()).map((key) => key.keyId));
  }

  /**
   * The root-signed revocation list `{issuedAt, revoked, signature}`. One signed list is served
   * until the revoked keys change or it is {@link REVOCATION_LIST_MAX_AGE_MS} old, so `issuedAt`
   * tells a launcher how fresh its list is. `issuedAt` never goes back, and a changed list is
   * always later than the one before it (a launcher keeps the list with the latest `issuedAt`).
   */
  async revocationList(): Promise<RevocationList> {
    const revoked = (await this.repository.revokedKeys()).map((key) => key.keyId);
    const fingerprint = revoked.join(',');
    const now = this.now().getTime();
    const held = this.signed;
    if (held && held.fingerprint === fingerprint && now - held.issuedAtMs < REVOCATION_LIST_MAX_AGE_MS) return held.list;
    let issuedAtMs = now;
    if (held) issuedAtMs = Math.max(issuedAtMs, held.fingerprint === fingerprint ? held.issuedAtMs : held.issuedAtMs + 1);
    const list = signRevocationList({ rootSigner: this.root.signer, revoked, issuedAt: new Date(issuedAtMs).toISOString() });
    this.signed = { list, fingerprint, issuedAtMs };
    return list;
  }
}
