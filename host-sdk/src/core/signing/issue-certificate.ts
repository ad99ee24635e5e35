/** Issuing developer certificates with the store root key (what `POST /developer/keys` does). */
import { PluginHostError } from '../errors.js';
import { canonicalJson, type CanonicalJsonValue } from './canonical-json.js';
import { CERTIFICATE_RESERVED_FIELDS, certificatePayload, type Certificate, type UnsignedCertificate } from './certificate.js';
import { bytesToBase64 } from './encoding.js';
import { copyMembers } from './json-fields.js';
import { keyIdOf } from './key-id.js';
import { decodePublicKey, type PublicKeyInput } from './public-key.js';
import { resolveSigner, signChecked, type RootKeyInput } from './signer-source.js';

/** Options of {@link issueCertificate}: give the root key as `rootSeed` or as `rootSigner`. */
export type IssueCertificateOptions = {
  /** The developer's public key (base64 or raw 32 bytes). Weak or malformed keys are refused. */
  readonly publicKey: PublicKeyInput;
  /** The store account that owns the key; lets updates survive a key change. */
  readonly developerId?: string;
  /** Further fields to certify (for example `issuedAt`); may not reuse a reserved field name. */
  readonly extra?: Readonly<Record<string, CanonicalJsonValue>>;
} & RootKeyInput;

/**
 * Issues `signature.cert.json` for a developer key: `{algorithm, keyId, publicKey, issuer: {keyId},
 * developerId?, ...extra, signature}`, the root signature covering everything but `signature`.
 *
 * @example
 * ```ts
 * const certificate = issueCertificate({ rootSeed, publicKey: developerPublicKey, developerId: 'acct_42' });
 * ```
 * @throws PluginHostError `INVALID_ARGUMENT` for an unusable public key, an empty `developerId`,
 *   an `extra` field with a reserved name or a value canonical JSON cannot represent.
 */
export function issueCertificate(options: IssueCertificateOptions): Certificate {
  const signer = resolveSigner(options.rootSeed, options.rootSigner, 'root');
  const publicKey = decodePublicKey(options.publicKey, 'developer public key');
  const { developerId, extra = {} } = options;
  if (developerId !== undefined && (typeof developerId !== 'string' || developerId === '')) {
    throw new PluginHostError('INVALID_ARGUMENT', 'developerId must be a non-empty string');
  }
  for (const key of Object.keys(extra)) {
    if (CERTIFICATE_RESERVED_FIELDS.includes(key)) {
      throw new PluginHostError('INVALID_ARGUMENT', `The extra certificate field "${key}" is reserved`);
    }
  }
  const unsigned: UnsignedCertificate = {
    algorithm: 'Ed25519',
    keyId: keyIdOf(publicKey),
    publicKey: bytesToBase64(publicKey),
    issuer: { keyId: keyIdOf(signer.publicKey) },
    ...(developerId === undefined ? {} : { developerId }),
  };
  copyMembers(unsigned, extra, []);
  canonicalJson(unsigned);
  const signature = signChecked(signer, certificatePayload(unsigned), 'root');
  return { ...unsigned, signature: bytesToBase64(signature) };
}
