/** Reading public keys given as base64 text or raw bytes. */
import { PluginHostError } from '../errors.js';
import { base64ToBytes, bytesToBase64 } from './encoding.js';
import { ED25519_PROBLEM_TEXT, findPublicKeyProblem } from './ed25519-checks.js';

/** A public key as base64 (standard, padded) of the raw 32 bytes, or the raw bytes. */
export type PublicKeyInput = string | Uint8Array;

/**
 * Decodes a public key given as strict base64 or raw bytes and checks that it is usable: 32 bytes,
 * canonically encoded, on the curve, not of small order.
 *
 * @param what - Names the key in error messages (for example `root public key`).
 * @throws PluginHostError `INVALID_ARGUMENT` naming the problem.
 */
export function decodePublicKey(key: PublicKeyInput, what = 'public key'): Uint8Array {
  let bytes: Uint8Array;
  if (typeof key === 'string') {
    try {
      bytes = base64ToBytes(key);
    } catch {
      throw new PluginHostError('INVALID_ARGUMENT', `The ${what} is not standard padded base64`);
    }
  } else {
    bytes = key;
  }
  const problem = findPublicKeyProblem(bytes);
  if (problem !== null) {
    throw new PluginHostError('INVALID_ARGUMENT', `The ${what} is unusable: ${ED25519_PROBLEM_TEXT[problem]}`);
  }
  return bytes;
}

/** Base64 (standard, padded) of a raw public key, the form used in certificates and settings. */
export function encodePublicKey(publicKey: Uint8Array): string {
  return bytesToBase64(publicKey);
}
