/**
 * Ed25519 with `node:crypto` (OpenSSL): converting between raw keys and `KeyObject`s, signing and
 * strict verification. Used where a key lives in a PEM file or environment variable (the registry
 * root key, `pluginctl`'s developer key); the isomorphic core gives byte-identical results.
 */
import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { findPublicKeyProblem, findSignatureProblem, PluginHostError, type Ed25519Signer } from '@plughost/host-sdk/core';

// DER headers of PKCS#8 (private) and SPKI (public) Ed25519 keys (RFC 8410); the raw 32 bytes follow.
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_ED25519_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

function requireEd25519(key: KeyObject, type: 'private' | 'public'): void {
  if (key.type !== type || key.asymmetricKeyType !== 'ed25519') {
    const kind = key.asymmetricKeyType ?? key.type;
    throw new PluginHostError('INVALID_ARGUMENT', `Expected an Ed25519 ${type} key, got a ${kind} ${key.type} key`);
  }
}

/** A `node:crypto` private key object for a 32-byte Ed25519 seed. */
export function privateKeyObjectFromSeed(seed: Uint8Array): KeyObject {
  if (seed.length !== 32) throw new PluginHostError('INVALID_ARGUMENT', 'An Ed25519 private key seed must be 32 bytes');
  return createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' });
}

/** A `node:crypto` public key object for a raw 32-byte Ed25519 public key. */
export function publicKeyObjectFromRaw(publicKey: Uint8Array): KeyObject {
  if (publicKey.length !== 32) throw new PluginHostError('INVALID_ARGUMENT', 'An Ed25519 public key must be 32 bytes');
  return createPublicKey({ key: Buffer.concat([SPKI_ED25519_PREFIX, publicKey]), format: 'der', type: 'spki' });
}

/** The 32-byte seed of an Ed25519 private key object. */
export function seedFromKeyObject(privateKey: KeyObject): Uint8Array {
  requireEd25519(privateKey, 'private');
  const jwk = privateKey.export({ format: 'jwk' });
  if (typeof jwk.d !== 'string') throw new PluginHostError('INVALID_ARGUMENT', 'The private key has no seed');
  return new Uint8Array(Buffer.from(jwk.d, 'base64url'));
}

/** The raw 32-byte public key of an Ed25519 private or public key object. */
export function rawPublicKeyOf(key: KeyObject): Uint8Array {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  requireEd25519(publicKey, 'public');
  const jwk = publicKey.export({ format: 'jwk' });
  if (typeof jwk.x !== 'string') throw new PluginHostError('INVALID_ARGUMENT', 'The public key has no x coordinate');
  return new Uint8Array(Buffer.from(jwk.x, 'base64url'));
}

/**
 * Signs `bytes` (for a package, the 32 raw bytes of `signedHash`) with an Ed25519 private key
 * object through `crypto.sign(null, data, key)`. Returns the 64-byte signature.
 *
 * @throws PluginHostError `INVALID_ARGUMENT` when `privateKey` is not an Ed25519 private key.
 */
export function nodeSignDigest(privateKey: KeyObject, bytes: Uint8Array): Uint8Array {
  requireEd25519(privateKey, 'private');
  return new Uint8Array(sign(null, bytes, privateKey));
}

/**
 * Verifies an Ed25519 signature with `node:crypto`, after the same strict checks as the core's
 * `verifyEd25519` (lengths, weak or non-canonical keys, S >= L, small-order R). Never throws for
 * bad input; returns `false`.
 */
export function nodeVerify(publicKey: Uint8Array | KeyObject, data: Uint8Array, signature: Uint8Array): boolean {
  let raw: Uint8Array;
  try {
    raw = publicKey instanceof Uint8Array ? publicKey : rawPublicKeyOf(publicKey);
  } catch {
    return false;
  }
  if (findPublicKeyProblem(raw) !== null || findSignatureProblem(signature) !== null) return false;
  try {
    return verify(null, data, publicKeyObjectFromRaw(raw), signature);
  } catch {
    return false;
  }
}

/**
 * An {@link Ed25519Signer} over a `node:crypto` private key object, for the core's signing helpers.
 *
 * @throws PluginHostError `INVALID_ARGUMENT` when `privateKey` is not an Ed25519 private key.
 */
export function createNodeSigner(privateKey: KeyObject): Ed25519Signer {
  requireEd25519(privateKey, 'private');
  const publicKey = rawPublicKeyOf(privateKey);
  return { publicKey, sign: (message) => nodeSignDigest(privateKey, message) };
}
