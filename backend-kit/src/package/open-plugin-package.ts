import {
  CERTIFICATE_FILE_NAME,
  PluginHostError,
  SIGNATURE_FILE_NAME,
  assertUniqueJsonKeys,
  readManifest,
  verifyPackageSignature,
  type ManifestProblem,
  type PackageSigner,
  type PluginManifest,
  type SignatureTrust,
} from '@plughost/host-sdk/core';
import { extractPackage, type ExtractPackageOptions, type ExtractedPackage } from './extract-package.js';

/**
 * What the signature of a package must be (the specification's verification policy):
 * - `required`: manual upload and store upload; a missing or invalid signature refuses the package.
 * - `if-present`: store install of legacy versions; an unsigned package passes, an invalid one does not.
 * - `ignore`: directory install during development; the signature is not looked at.
 */
export type SignaturePolicy = 'required' | 'if-present' | 'ignore';

/** Options of {@link openPluginPackage}. */
export interface OpenPluginPackageOptions extends ExtractPackageOptions {
  signaturePolicy: SignaturePolicy;
  /** The trusted root key and revocation list; required unless the policy is `ignore`. */
  trust?: SignatureTrust;
}

/** The package's signature as verified under the policy. */
export type PackageSignatureStatus =
  | { readonly status: 'valid'; readonly signer: PackageSigner }
  | { readonly status: 'unsigned' }
  | { readonly status: 'not-checked' };

/** A package whose archive, manifest and signature passed every check. */
export interface OpenedPluginPackage extends ExtractedPackage {
  /** The validated manifest (a fresh object, never the parsed input). */
  readonly manifest: PluginManifest;
  /** Manifest warnings (unknown fields and the like) to show the user or the author. */
  readonly warnings: readonly ManifestProblem[];
  readonly signature: PackageSignatureStatus;
}

function checkSignature(extracted: ExtractedPackage, options: OpenPluginPackageOptions): PackageSignatureStatus {
  if (options.signaturePolicy === 'ignore') return { status: 'not-checked' };
  if (!options.trust) {
    throw new PluginHostError('INVALID_ARGUMENT', 'A trusted root public key is needed to check package signatures');
  }
  const result = verifyPackageSignature(extracted, options.trust);
  if (result.status === 'invalid') {
    throw new PluginHostError('SIGNATURE_INVALID', `The package signature is invalid: ${result.reason}`, { check: result.check });
  }
  if (result.status === 'unsigned' && options.signaturePolicy === 'required') {
    throw new PluginHostError(
      'SIGNATURE_INVALID',
      'The package is not signed (signature.json and signature.cert.json are missing); only signed packages can be installed this way',
      { check: 'missing' },
    );
  }
  return result;
}

/**
 * Refuses signature files that repeat a key, whatever the policy: `manifest.json` gets the same
 * check from `readManifest`. These are the files a signature speaks for, so every reader must see
 * the same values in them (decisions section 4).
 */
function assertUniqueSignatureKeys(extracted: ExtractedPackage): void {
  if (extracted.signatureJson) assertUniqueJsonKeys(extracted.signatureJson, SIGNATURE_FILE_NAME);
  if (extracted.certificateJson) assertUniqueJsonKeys(extracted.certificateJson, CERTIFICATE_FILE_NAME);
}

/**
 * Opens a plugin package in one pass: extracts it safely (see {@link extractPackage}), validates
 * `manifest.json` against the files actually in the archive, and checks the signature under the
 * given policy. A manifest or signature file whose JSON repeats a key is refused
 * (`INVALID_MANIFEST`) under every policy. On any failure the extraction folder is removed and the error is thrown as a
 * `PluginHostError` with its code (`INVALID_PACKAGE`, `UNSAFE_ENTRY_PATH`, `PACKAGE_TOO_LARGE`,
 * `INVALID_MANIFEST`, `SIGNATURE_INVALID`).
 *
 * @example
 * ```ts
 * const opened = await openPluginPackage(uploadPath, {
 *   workDirectory: join(dataDir, 'tmp'),
 *   signaturePolicy: 'required',
 *   trust: { rootPublicKey },
 * });
 * try {
 *   await install(opened.manifest.id, opened.directory);
 * } finally {
 *   await opened.dispose();
 * }
 * ```
 */
export async function openPluginPackage(archivePath: string, options: OpenPluginPackageOptions): Promise<OpenedPluginPackage> {
  if (options.signaturePolicy !== 'ignore' && !options.trust) {
    throw new PluginHostError('INVALID_ARGUMENT', 'A trusted root public key is needed to check package signatures');
  }
  const extracted = await extractPackage(archivePath, options);
  try {
    const { manifest, warnings } = readManifest(extracted.manifestBytes, {
      files: new Set(extracted.files.map((file) => file.path)),
    });
    assertUniqueSignatureKeys(extracted);
    const signature = checkSignature(extracted, options);
    return { ...extracted, manifest, warnings, signature };
  } catch (error) {
    await extracted.dispose();
    throw error;
  }
}
