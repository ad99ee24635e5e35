/** Key ids (decisions, section 5): short, stable names for Ed25519 public keys. */
import { PluginHostError } from '../errors.js';
import { bytesToHex } from './encoding.js';
import { ED25519_PUBLIC_KEY_LENGTH } from './ed25519-checks.js';
import { sha256 } from './sha256.js';

const KEY_ID = /^[0-9a-f]{16}$/;

/**
 * The key id of a raw 32-byte public key: lowercase hex of the first 8 bytes of its SHA-256
 * (16 characters).
 *
 * @throws PluginHostError `INVALID_ARGUMENT` when `publicKey` is not 32 bytes.
 */
export function keyIdOf(publicKey: Uint8Array): string {
  if (publicKey.length !== ED25519_PUBLIC_KEY_LENGTH) {
    throw new PluginHostError('INVALID_ARGUMENT', 'An Ed25519 public key must be 32 bytes');
  }
  return bytesToHex(sha256(publicKey).subarray(0, 8));
}

/** True when `value` is spelled like a key id (16 lowercase hex characters). */
export function isKeyId(value: unknown): value is string {
  return typeof value === 'string' && KEY_ID.test(value);
}
