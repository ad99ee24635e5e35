/**
 * The package trust chain: encodings, SHA-256, canonical JSON, strict Ed25519, the signature
 * files, package verification and the signing helpers. Isomorphic (TweetNaCl and @noble/hashes,
 * no platform crypto), so the launcher page, the local backend, the registry and `pluginctl`
 * verify exactly alike.
 *
 * @packageDocumentation
 */
export {
  base64ToBytes,
  bytesEqual,
  bytesToBase64,
  bytesToHex,
  hexToBytes,
  isLowercaseHex,
  utf8Decode,
  utf8Encode,
} from './encoding.js';
export { createSha256, sha256, sha256Hex } from './sha256.js';
export type { Sha256Hasher } from './sha256.js';
export { canonicalJson } from './canonical-json.js';
export { assertUniqueJsonKeys, describeDuplicateJsonKey, findDuplicateJsonKey } from './duplicate-json-keys.js';
export type { DuplicateJsonKey } from './duplicate-json-keys.js';
export type { CanonicalJsonValue } from './canonical-json.js';
export {
  ED25519_PROBLEM_TEXT,
  ED25519_PUBLIC_KEY_LENGTH,
  ED25519_SEED_LENGTH,
  ED25519_SIGNATURE_LENGTH,
  findPublicKeyProblem,
  findSignatureProblem,
} from './ed25519-checks.js';
export type { Ed25519Problem } from './ed25519-checks.js';
export {
  createSeedSigner,
  ed25519PublicKeyFromSeed,
  findEd25519VerifyProblem,
  signEd25519,
  verifyEd25519,
} from './ed25519.js';
export type { Ed25519Signer } from './ed25519.js';
export type { RootKeyInput } from './signer-source.js';
export { isKeyId, keyIdOf } from './key-id.js';
export { decodePublicKey, encodePublicKey } from './public-key.js';
export type { PublicKeyInput } from './public-key.js';
export { computeSignedHash, SIGNATURE_EXCLUDED_PATHS, signedFilesList, signedHashDocument } from './signed-hash.js';
export type { PackageFileDigest } from './signed-hash.js';
export {
  parseSignatureFile,
  serializeSignatureFile,
  SIGNATURE_FILE_NAME,
  validateSignatureFile,
} from './signature-file.js';
export type { SignatureFile } from './signature-file.js';
export {
  CERTIFICATE_FILE_NAME,
  CERTIFICATE_RESERVED_FIELDS,
  certificatePayload,
  parseCertificate,
  serializeCertificate,
  validateCertificate,
} from './certificate.js';
export type { Certificate, CertificateIssuer, UnsignedCertificate } from './certificate.js';
export { issueCertificate } from './issue-certificate.js';
export type { IssueCertificateOptions } from './issue-certificate.js';
export { signPackage } from './sign-package.js';
export type { SignPackageOptions } from './sign-package.js';
export { assertSignedPackage, verifyPackageSignature } from './verify-package.js';
export type {
  PackageSignatureResult,
  PackageSigner,
  SignatureCheck,
  SignatureTrust,
  SignedPackageContents,
} from './verify-package.js';
export { revocationListPayload, signRevocationList, verifyRevocationList } from './revocation-list.js';
export type {
  RevocationList,
  RevocationListResult,
  SignRevocationListOptions,
  UnsignedRevocationList,
} from './revocation-list.js';
