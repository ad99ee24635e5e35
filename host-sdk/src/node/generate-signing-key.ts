/** Generating Ed25519 key pairs for developers (`pluginctl`) and store roots. */
import { generateKeyPairSync } from 'node:crypto';
import { bytesToBase64, keyIdOf } from '@plughost/host-sdk/core';
import { rawPublicKeyOf, seedFromKeyObject } from './ed25519-key-object.js';

/** Options of {@link generateSigningKey}. */
export interface GenerateSigningKeyOptions {
  /** `pem`: PKCS#8 PEM text; `seed`: base64 of the 32-byte seed. Both are accepted everywhere a private key is read. */
  readonly format: 'pem' | 'seed';
}

/** A freshly generated key pair. */
export interface GeneratedSigningKey {
  /** The private key in the requested format. Keep it secret. */
  readonly privateKey: string;
  /** Base64 of the raw 32-byte public key (what `POST /developer/keys` and `PLUGIN_ROOT_PUBLIC_KEY` take). */
  readonly publicKey: string;
  /** Key id of the public key. */
  readonly keyId: string;
}

/**
 * Generates an Ed25519 key pair with the operating system's random source.
 *
 * @example
 * ```ts
 * const { privateKey, publicKey, keyId } = generateSigningKey({ format: 'pem' });
 * ```
 */
export function generateSigningKey(options: GenerateSigningKeyOptions): GeneratedSigningKey {
  const { privateKey } = generateKeyPairSync('ed25519');
  const publicKey = rawPublicKeyOf(privateKey);
  const text = options.format === 'pem' ? privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() : bytesToBase64(seedFromKeyObject(privateKey));
  return { privateKey: text, publicKey: bytesToBase64(publicKey), keyId: keyIdOf(publicKey) };
}
