/**
 * Verifying a package against the trust chain (decisions, section 5). Offline and synchronous:
 * the caller brings the manifest bytes, the digests the archive reader computed, the two signature
 * files, and its trusted root public key.
 */
import { isPluginHostError, PluginHostError } from '../errors.js';
import { certificatePayload, parseCertificate, type Certificate } from './certificate.js';
import { ED25519_PROBLEM_TEXT } from './ed25519-checks.js';
import { findEd25519VerifyProblem } from './ed25519.js';
import { base64ToBytes, hexToBytes } from './encoding.js';
import { keyIdOf } from './key-id.js';
import { decodePublicKey, type PublicKeyInput } from './public-key.js';
import { computeSignedHash, type PackageFileDigest } from './signed-hash.js';
import { parseSignatureFile, type SignatureFile } from './signature-file.js';

/** What the package reader hands to {@link verifyPackageSignature}. */
export interface SignedPackageContents {
  /** The raw bytes of the root `manifest.json`. */
  readonly manifestBytes: Uint8Array;
  /**
   * Every file entry of the archive with the SHA-256 the reader computed; folders left out. The
   * root `manifest.json`, `signature.json` and `signature.cert.json` may be included: they are
   * dropped here.
   */
  readonly files: readonly PackageFileDigest[];
  /** The bytes of the root `signature.json`, when the archive has one. */
  readonly signatureJson?: Uint8Array | undefined;
  /** The bytes of the root `signature.cert.json`, when the archive has one. */
  readonly certificateJson?: Uint8Array | undefined;
}

/** What the verifier trusts. */
export interface SignatureTrust {
  /** The store root public key: base64 of the raw 32 bytes, or the bytes. */
  readonly rootPublicKey: PublicKeyInput;
  /** Key ids on the registry's revocation list (see `verifyRevocationList`), when the launcher has one. */
  readonly revokedKeyIds?: ReadonlySet<string> | undefined;
}

/** The verified developer key of a package. */
export interface PackageSigner {
  /** Key id of the developer key. */
  readonly keyId: string;
  /** Base64 of the developer's raw public key. */
  readonly publicKey: string;
  /** The store account named by the certificate, when it names one. */
  readonly developerId?: string;
}

/** Which check of the chain failed; each has a specific `reason` text too. */
export type SignatureCheck =
  | 'signature-files'
  | 'signature-file-format'
  | 'certificate-format'
  | 'signer-key-id'
  | 'certificate-key-id'
  | 'issuer'
  | 'certificate-signature'
  | 'file-list'
  | 'signed-hash'
  | 'package-signature'
  | 'revoked';

/** The outcome of {@link verifyPackageSignature}. */
export type PackageSignatureResult =
  | { readonly status: 'valid'; readonly signer: PackageSigner }
  | { readonly status: 'unsigned' }
  | { readonly status: 'invalid'; readonly check: SignatureCheck; readonly reason: string };

type Invalid = Extract<PackageSignatureResult, { status: 'invalid' }>;

function invalid(check: SignatureCheck, reason: string): Invalid {
  return { status: 'invalid', check, reason };
}

function messageOf(error: unknown): string {
  if (isPluginHostError(error)) return error.message;
  throw error;
}

function parseBoth(signatureJson: Uint8Array, certificateJson: Uint8Array): Invalid | [SignatureFile, Certificate] {
  let signatureFile: SignatureFile;
  try {
    signatureFile = parseSignatureFile(signatureJson);
  } catch (error) {
    return invalid('signature-file-format', messageOf(error));
  }
  try {
    return [signatureFile, parseCertificate(certificateJson)];
  } catch (error) {
    return invalid('certificate-format', messageOf(error));
  }
}

/**
 * Verifies a package's signature against the trusted root, with the checks in the order of
 * decisions section 5:
 *
 * 1. both `signature.json` and `signature.cert.json` are present (neither: `unsigned`) and well formed;
 * 2. `signerKeyId` equals the certificate's `keyId`;
 * 3. the certificate's `keyId` is the key id of its `publicKey`;
 * 4. `issuer.keyId` is the trusted root's key id;
 * 5. the root signature over the certificate (without `signature`) holds;
 * 6. the recomputed `signedHash` equals the stored one;
 * 7. the package signature over the 32 digest bytes holds under the certificate's key;
 * 8. no key is weak (small-order) or malformed: enforced inside checks 5 and 7, with its own reason;
 * 9. the key id is not revoked.
 *
 * Never throws for anything about the package; every failure is `invalid` with a specific reason.
 *
 * @example
 * ```ts
 * const result = verifyPackageSignature(
 *   { manifestBytes, files, signatureJson, certificateJson },
 *   { rootPublicKey: process.env.PLUGIN_ROOT_PUBLIC_KEY, revokedKeyIds },
 * );
 * if (result.status === 'invalid') console.warn(result.reason);
 * ```
 * @throws PluginHostError `INVALID_ARGUMENT` when the trusted root public key itself is unusable
 *   (a configuration error, not a property of the package).
 */
export function verifyPackageSignature(contents: SignedPackageContents, trust: SignatureTrust): PackageSignatureResult {
  const rootPublicKey = decodePublicKey(trust.rootPublicKey, 'trusted root public key');
  const { signatureJson, certificateJson } = contents;
  if (signatureJson === undefined && certificateJson === undefined) return { status: 'unsigned' };
  if (signatureJson === undefined) {
    return invalid('signature-files', 'signature.cert.json is present but signature.json is missing');
  }
  if (certificateJson === undefined) {
    return invalid('signature-files', 'signature.json is present but signature.cert.json is missing');
  }

  const parsed = parseBoth(signatureJson, certificateJson);
  if (!Array.isArray(parsed)) return parsed;
  const [signatureFile, certificate] = parsed;

  if (signatureFile.signerKeyId !== certificate.keyId) {
    return invalid('signer-key-id', `signature.json names signer key ${signatureFile.signerKeyId} but the certificate is for key ${certificate.keyId}`);
  }
  const developerKey = base64ToBytes(certificate.publicKey);
  const actualKeyId = keyIdOf(developerKey);
  if (certificate.keyId !== actualKeyId) {
    return invalid('certificate-key-id', `The certificate's keyId ${certificate.keyId} does not match its publicKey (whose key id is ${actualKeyId})`);
  }
  const rootKeyId = keyIdOf(rootPublicKey);
  if (certificate.issuer.keyId !== rootKeyId) {
    return invalid('issuer', `The certificate was issued by key ${certificate.issuer.keyId}, not by the trusted root ${rootKeyId}`);
  }
  const certificateProblem = findEd25519VerifyProblem(rootPublicKey, certificatePayload(certificate), base64ToBytes(certificate.signature));
  if (certificateProblem !== null) {
    return invalid(
      'certificate-signature',
      `The root signature on the certificate does not hold: ${ED25519_PROBLEM_TEXT[certificateProblem]} (a certificate field was changed, or it was signed by another key)`,
    );
  }

  let signedHash: string;
  try {
    signedHash = computeSignedHash(contents.manifestBytes, contents.files);
  } catch (error) {
    return invalid('file-list', `The archive's file list cannot be signed: ${messageOf(error)}`);
  }
  if (signedHash !== signatureFile.signedHash) {
    return invalid(
      'signed-hash',
      `The package contents do not match signature.json: the manifest or a file was changed, added or removed (signedHash is ${signedHash}, signature.json says ${signatureFile.signedHash})`,
    );
  }
  const packageProblem = findEd25519VerifyProblem(developerKey, hexToBytes(signedHash), base64ToBytes(signatureFile.signature));
  if (packageProblem !== null) {
    const weakKey = packageProblem === 'small-order-public-key' || packageProblem === 'non-canonical-public-key';
    return invalid(
      'package-signature',
      `The package signature does not hold under the certificate's key: ${ED25519_PROBLEM_TEXT[packageProblem]}${weakKey ? ' (the certified developer key is weak)' : ''}`,
    );
  }
  if (trust.revokedKeyIds?.has(certificate.keyId) === true) {
    return invalid('revoked', `The developer key ${certificate.keyId} has been revoked by the store`);
  }

  const signer: PackageSigner = {
    keyId: certificate.keyId,
    publicKey: certificate.publicKey,
    ...(certificate.developerId === undefined ? {} : { developerId: certificate.developerId }),
  };
  return { status: 'valid', signer };
}

/**
 * Verifies like {@link verifyPackageSignature} and returns the signer, or throws: for paths where a
 * signature is mandatory (store upload, manual upload to the launcher).
 *
 * @throws PluginHostError `SIGNATURE_INVALID` with the reason, also when the package is unsigned;
 *   `INVALID_ARGUMENT` when the trusted root public key is unusable.
 */
export function assertSignedPackage(contents: SignedPackageContents, trust: SignatureTrust): PackageSigner {
  const result = verifyPackageSignature(contents, trust);
  if (result.status === 'valid') return result.signer;
  if (result.status === 'unsigned') {
    throw new PluginHostError('SIGNATURE_INVALID', 'The package is not signed: signature.json and signature.cert.json are missing', {
      check: 'signature-files',
    });
  }
  throw new PluginHostError('SIGNATURE_INVALID', result.reason, { check: result.check });
}
