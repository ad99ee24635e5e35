/**
 * The core's signing helpers with the key held by `node:crypto`. Ed25519 is deterministic, so
 * these give exactly the bytes `signPackage` and `issueCertificate` give for the same seed.
 */
import type { KeyObject } from 'node:crypto';
import {
  issueCertificate,
  signPackage,
  type CanonicalJsonValue,
  type Certificate,
  type PackageFileDigest,
  type PublicKeyInput,
  type SignatureFile,
} from '@plughost/host-sdk/core';
import { createNodeSigner } from './ed25519-key-object.js';
import { readPrivateKey } from './read-private-key.js';

/** A private key: a `node:crypto` key object, or text as {@link readPrivateKey} accepts it. */
export type NodePrivateKeyInput = KeyObject | string;

function toKeyObject(key: NodePrivateKeyInput): KeyObject {
  return typeof key === 'string' ? readPrivateKey(key).keyObject : key;
}

/** Options of {@link signPackageWithNodeCrypto}. */
export interface NodeSignPackageOptions {
  /** The raw bytes of `manifest.json`, exactly as they will be stored in the archive. */
  readonly manifestBytes: Uint8Array;
  /** The archive's file entries with their SHA-256; the three excluded root files may be present. */
  readonly files: readonly PackageFileDigest[];
  /** The developer's private key. */
  readonly privateKey: NodePrivateKeyInput;
}

/**
 * Signs a package with `node:crypto`, producing the same `signature.json` as the core's
 * `signPackage`.
 *
 * @throws PluginHostError `INVALID_ARGUMENT` for an unreadable key or a bad file digest;
 *   `INVALID_PACKAGE` for duplicate paths.
 */
export function signPackageWithNodeCrypto(options: NodeSignPackageOptions): SignatureFile {
  return signPackage({
    manifestBytes: options.manifestBytes,
    files: options.files,
    signer: createNodeSigner(toKeyObject(options.privateKey)),
  });
}

/** Options of {@link issueCertificateWithNodeCrypto}. */
export interface NodeIssueCertificateOptions {
  /** The store root private key. */
  readonly rootPrivateKey: NodePrivateKeyInput;
  /** The developer's public key (base64 or raw 32 bytes). */
  readonly publicKey: PublicKeyInput;
  /** The store account that owns the key. */
  readonly developerId?: string;
  /** Further certified fields; may not reuse a reserved field name. */
  readonly extra?: Readonly<Record<string, CanonicalJsonValue>>;
}

/**
 * Issues `signature.cert.json` with the root key held by `node:crypto`, producing the same
 * certificate as the core's `issueCertificate`.
 *
 * @throws PluginHostError `INVALID_ARGUMENT` as `issueCertificate`, or for an unreadable root key.
 */
export function issueCertificateWithNodeCrypto(options: NodeIssueCertificateOptions): Certificate {
  return issueCertificate({
    rootSigner: createNodeSigner(toKeyObject(options.rootPrivateKey)),
    publicKey: options.publicKey,
    ...(options.developerId === undefined ? {} : { developerId: options.developerId }),
    ...(options.extra === undefined ? {} : { extra: options.extra }),
  });
}
