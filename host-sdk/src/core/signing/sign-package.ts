/** Producing `signature.json` for a package (what `pluginctl pack --key` and `publish` do). */
import type { Ed25519Signer } from './ed25519.js';
import { bytesToBase64, hexToBytes } from './encoding.js';
import { keyIdOf } from './key-id.js';
import { computeSignedHash, type PackageFileDigest } from './signed-hash.js';
import type { SignatureFile } from './signature-file.js';
import { resolveSigner, signChecked } from './signer-source.js';

/** Options of {@link signPackage}: give the developer key as `seed` or as `signer`. */
export type SignPackageOptions = {
  /** The raw bytes of `manifest.json`, exactly as they will be stored in the archive. */
  readonly manifestBytes: Uint8Array;
  /** The archive's file entries with their SHA-256; the three excluded root files may be present. */
  readonly files: readonly PackageFileDigest[];
} & (
  | {
      /** The developer private key as a 32-byte seed. */
      readonly seed: Uint8Array;
      readonly signer?: undefined;
    }
  | {
      /** The developer key as a signer (for example a `node:crypto` key object). */
      readonly signer: Ed25519Signer;
      readonly seed?: undefined;
    }
);

/**
 * Signs a package: computes `signedHash` and signs its 32 raw digest bytes.
 *
 * @example
 * ```ts
 * const signature = signPackage({ manifestBytes, files, seed });
 * zip.add('signature.json', serializeSignatureFile(signature));
 * ```
 * @throws PluginHostError `INVALID_ARGUMENT` for a bad seed, signer or file digest;
 *   `INVALID_PACKAGE` for duplicate paths.
 */
export function signPackage(options: SignPackageOptions): SignatureFile {
  const signer = resolveSigner(options.seed, options.signer, 'developer');
  const signedHash = computeSignedHash(options.manifestBytes, options.files);
  const signature = signChecked(signer, hexToBytes(signedHash), 'developer');
  return {
    alg: 'Ed25519',
    signedHash,
    signerKeyId: keyIdOf(signer.publicKey),
    signature: bytesToBase64(signature),
  };
}
