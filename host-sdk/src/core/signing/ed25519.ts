/**
 * Ed25519 signing and strict verification on TweetNaCl (audited, pure JavaScript, identical in
 * Node and browsers). Verification adds libsodium's checks (see `ed25519-checks.ts`) in front of
 * TweetNaCl's, so a weak key, a malleated signature or a wrong length is refused with a reason.
 */
import nacl from 'tweetnacl';
import { PluginHostError } from '../errors.js';
import { ED25519_SEED_LENGTH, findPublicKeyProblem, findSignatureProblem, type Ed25519Problem } from './ed25519-checks.js';

/**
 * Something that signs with one Ed25519 key: a seed held in memory ({@link createSeedSigner}),
 * a `node:crypto` key object, or a hardware or remote signer. Signing is synchronous.
 */
export interface Ed25519Signer {
  /** The raw 32-byte public key of the signing key. */
  readonly publicKey: Uint8Array;
  /** Returns the 64-byte Ed25519 signature of `message`. */
  sign(message: Uint8Array): Uint8Array;
}

function requireSeed(seed: Uint8Array): void {
  if (seed.length !== ED25519_SEED_LENGTH) {
    throw new PluginHostError('INVALID_ARGUMENT', 'An Ed25519 private key seed must be 32 bytes');
  }
}

/**
 * The raw 32-byte public key of a 32-byte private key seed.
 *
 * @throws PluginHostError `INVALID_ARGUMENT` when `seed` is not 32 bytes.
 */
export function ed25519PublicKeyFromSeed(seed: Uint8Array): Uint8Array {
  requireSeed(seed);
  return nacl.sign.keyPair.fromSeed(seed).publicKey;
}

/**
 * Signs `message` with the key of a 32-byte seed. Ed25519 is deterministic: the same seed and
 * message always give the same 64 bytes, whichever implementation signs.
 *
 * @throws PluginHostError `INVALID_ARGUMENT` when `seed` is not 32 bytes.
 */
export function signEd25519(seed: Uint8Array, message: Uint8Array): Uint8Array {
  requireSeed(seed);
  return nacl.sign.detached(message, nacl.sign.keyPair.fromSeed(seed).secretKey);
}

/**
 * A signer over a seed held in memory.
 *
 * @throws PluginHostError `INVALID_ARGUMENT` when `seed` is not 32 bytes.
 */
export function createSeedSigner(seed: Uint8Array): Ed25519Signer {
  requireSeed(seed);
  const keyPair = nacl.sign.keyPair.fromSeed(seed);
  return {
    publicKey: keyPair.publicKey,
    sign: (message) => nacl.sign.detached(message, keyPair.secretKey),
  };
}

/**
 * Verifies an Ed25519 signature strictly and says why it fails: `null` means valid. Refuses
 * wrong lengths, weak (small-order) and non-canonical public keys, keys that are not curve points,
 * non-canonical signatures (S >= L) and small-order R before checking the signature itself.
 */
export function findEd25519VerifyProblem(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): Ed25519Problem | null {
  const problem = findPublicKeyProblem(publicKey) ?? findSignatureProblem(signature);
  if (problem !== null) return problem;
  return nacl.sign.detached.verify(message, signature, publicKey) ? null : 'signature-mismatch';
}

/**
 * True when `signature` is a valid Ed25519 signature of `message` under `publicKey`, under the
 * strict rules of {@link findEd25519VerifyProblem}. Never throws.
 */
export function verifyEd25519(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  return findEd25519VerifyProblem(publicKey, message, signature) === null;
}
