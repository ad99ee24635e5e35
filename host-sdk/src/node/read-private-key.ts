/**
 * Reading an Ed25519 private key as the tools accept it (spec: "a private key is generated as
 * PKCS#8 PEM or as a raw 32-byte seed in base64"): `PLUGINCTL_SIGN_KEY`, `REGISTRY_ROOT_PRIVATE_KEY`,
 * or a key file. Error messages describe the problem and never echo key material.
 */
import type { KeyObject } from 'node:crypto';
import { createPrivateKey } from 'node:crypto';
import { base64ToBytes, PluginHostError } from '@plughost/host-sdk/core';
import { privateKeyObjectFromSeed, rawPublicKeyOf, seedFromKeyObject } from './ed25519-key-object.js';

/** An Ed25519 private key in the three forms the SDK uses. */
export interface Ed25519PrivateKey {
  /** The 32-byte seed (what TweetNaCl and the core signing helpers take). */
  readonly seed: Uint8Array;
  /** The raw 32-byte public key. */
  readonly publicKey: Uint8Array;
  /** The key as a `node:crypto` private key object. */
  readonly keyObject: KeyObject;
}

function refuse(message: string): never {
  throw new PluginHostError('INVALID_ARGUMENT', message);
}

// Labels of PEM blocks that are recognisably something else, with what to say about them.
const OTHER_PEM_BLOCKS: readonly (readonly [string, string])[] = [
  ['ENCRYPTED PRIVATE KEY', 'is an encrypted PKCS#8 key; give an unencrypted one'],
  ['RSA PRIVATE KEY', 'is an RSA key; an Ed25519 key is needed'],
  ['EC PRIVATE KEY', 'is an EC (ECDSA) key; an Ed25519 key is needed'],
  ['OPENSSH PRIVATE KEY', 'is in OpenSSH format; give a PKCS#8 PEM or a base64 seed'],
  ['PUBLIC KEY', 'is a public key; the private key is needed'],
  ['CERTIFICATE', 'is an X.509 certificate; the private key is needed'],
];

function readPem(text: string): KeyObject {
  const label = /-----BEGIN ([A-Z0-9 ]+)-----/.exec(text)?.[1];
  const other = OTHER_PEM_BLOCKS.find(([name]) => name === label);
  if (other !== undefined) refuse(`The private key ${other[1]}`);
  if (label !== 'PRIVATE KEY') refuse(`The private key PEM block is "${label ?? 'unlabelled'}", not "PRIVATE KEY" (PKCS#8)`);
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: text, format: 'pem' });
  } catch {
    return refuse('The private key is not a readable PKCS#8 PEM');
  }
  if (key.asymmetricKeyType !== 'ed25519') {
    refuse(`The private key is a PKCS#8 ${key.asymmetricKeyType ?? 'unknown'} key; an Ed25519 key is needed`);
  }
  return key;
}

function readSeed(text: string): Uint8Array {
  // 64 hex characters happen to be valid base64 (of 48 bytes): name the likelier mistake.
  if (/^[0-9a-fA-F]{64}$/.test(text)) {
    refuse('The private key looks like a hex seed; give the 32-byte seed as standard padded base64');
  }
  let bytes: Uint8Array;
  try {
    bytes = base64ToBytes(text);
  } catch {
    return refuse('The private key is neither a PKCS#8 PEM ("-----BEGIN PRIVATE KEY-----") nor standard padded base64 of a 32-byte seed');
  }
  if (bytes.length === 64) {
    refuse('The private key decodes to 64 bytes (a NaCl secret key: seed then public key); give only the 32-byte seed');
  }
  if (bytes.length !== 32) refuse(`The private key decodes to ${bytes.length} bytes; an Ed25519 seed is 32 bytes`);
  return bytes;
}

/**
 * Reads an Ed25519 private key given as PKCS#8 PEM or as base64 (standard, padded) of the 32-byte
 * seed. Surrounding whitespace is ignored, so a key file's final newline is fine.
 *
 * @example
 * ```ts
 * const { seed, publicKey } = readPrivateKey(process.env.PLUGINCTL_SIGN_KEY ?? '');
 * ```
 * @throws PluginHostError `INVALID_ARGUMENT` saying what the text is instead (an RSA, EC, OpenSSH,
 *   encrypted or public key, a certificate, wrong-length or malformed base64).
 */
export function readPrivateKey(text: string): Ed25519PrivateKey {
  const trimmed = text.trim();
  if (trimmed === '') refuse('The private key is empty');
  const keyObject = trimmed.startsWith('-----BEGIN') ? readPem(trimmed) : privateKeyObjectFromSeed(readSeed(trimmed));
  return { seed: seedFromKeyObject(keyObject), publicKey: rawPublicKeyOf(keyObject), keyObject };
}
