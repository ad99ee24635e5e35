import { bytesToBase64, keyIdOf, type Ed25519Signer } from '@plughost/host-sdk/core';
import { createNodeSigner, readPrivateKey } from '@plughost/host-sdk/node';

/** The store root key as the publishing module uses it. */
export interface RootKey {
  /** Signs certificates and revocation lists (`node:crypto`). */
  readonly signer: Ed25519Signer;
  /** Base64 of the raw public key: the trusted root of uploads. */
  readonly publicKey: string;
  readonly keyId: string;
}

/**
 * Reads the root private key of `REGISTRY_ROOT_PRIVATE_KEY` (PKCS#8 PEM or base64 seed).
 *
 * @throws PluginHostError `INVALID_ARGUMENT` when the text is not a usable Ed25519 private key.
 */
export function readRootKey(text: string): RootKey {
  const key = readPrivateKey(text);
  return { signer: createNodeSigner(key.keyObject), publicKey: bytesToBase64(key.publicKey), keyId: keyIdOf(key.publicKey) };
}
