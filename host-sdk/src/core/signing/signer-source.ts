/** How the signing helpers accept a key: a seed in memory, or any {@link Ed25519Signer}. */
import { PluginHostError } from '../errors.js';
import { ED25519_PROBLEM_TEXT } from './ed25519-checks.js';
import { createSeedSigner, findEd25519VerifyProblem, type Ed25519Signer } from './ed25519.js';

/** The store root key, given as exactly one of a seed in memory or a signer. */
export type RootKeyInput =
  | {
      /** The root private key as a 32-byte seed. */
      readonly rootSeed: Uint8Array;
      readonly rootSigner?: undefined;
    }
  | {
      /** The root key as a signer (for example a `node:crypto` key object). */
      readonly rootSigner: Ed25519Signer;
      readonly rootSeed?: undefined;
    };

/** Picks the signer from options that hold exactly one of a seed or a signer. */
export function resolveSigner(seed: Uint8Array | undefined, signer: Ed25519Signer | undefined, what: string): Ed25519Signer {
  if (seed !== undefined && signer !== undefined) {
    throw new PluginHostError('INVALID_ARGUMENT', `Give either a ${what} seed or a ${what} signer, not both`);
  }
  if (seed !== undefined) return createSeedSigner(seed);
  if (signer !== undefined) return signer;
  throw new PluginHostError('INVALID_ARGUMENT', `A ${what} seed or signer is required`);
}

/**
 * Signs `message` and checks the result under the signer's own public key before it is handed
 * out, so a signer whose `publicKey` does not belong to its private key fails here, at signing
 * time, rather than on every user's machine.
 */
export function signChecked(signer: Ed25519Signer, message: Uint8Array, what: string): Uint8Array {
  const signature = signer.sign(message);
  const problem = findEd25519VerifyProblem(signer.publicKey, message, signature);
  if (problem !== null) {
    throw new PluginHostError('INVALID_ARGUMENT', `The ${what} signer's signature does not verify under its own public key: ${ED25519_PROBLEM_TEXT[problem]}`);
  }
  return signature;
}
