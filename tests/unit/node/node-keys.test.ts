import { describe, expect, it } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import { base64ToBytes, bytesToBase64, ed25519PublicKeyFromSeed, isPluginHostError, keyIdOf } from '@plughost/host-sdk/core';
import { generateSigningKey, readPrivateKey, seedFromKeyObject } from '@plughost/host-sdk/node';

function refusal(text: string): string {
  try {
    readPrivateKey(text);
  } catch (error) {
    if (isPluginHostError(error, 'INVALID_ARGUMENT')) return error.message;
    throw error;
  }
  throw new Error('expected INVALID_ARGUMENT');
}

const SEED = new Uint8Array(32).fill(0x5a);

describe('generateSigningKey', () => {
  it('generates a PKCS#8 PEM key that reads back to the same public key and key id', () => {
    const key = generateSigningKey({ format: 'pem' });
    expect(key.privateKey).toMatch(/^-----BEGIN PRIVATE KEY-----\n[\s\S]+\n-----END PRIVATE KEY-----\n$/);
    const read = readPrivateKey(key.privateKey);
    expect(bytesToBase64(read.publicKey)).toBe(key.publicKey);
    expect(key.keyId).toBe(keyIdOf(read.publicKey));
    expect(bytesToBase64(ed25519PublicKeyFromSeed(read.seed))).toBe(key.publicKey);
  });

  it('generates a base64 seed key', () => {
    const key = generateSigningKey({ format: 'seed' });
    expect(base64ToBytes(key.privateKey)).toHaveLength(32);
    expect(bytesToBase64(ed25519PublicKeyFromSeed(base64ToBytes(key.privateKey)))).toBe(key.publicKey);
    expect(base64ToBytes(key.publicKey)).toHaveLength(32);
    expect(key.keyId).toMatch(/^[0-9a-f]{16}$/);
  });

  it('generates a different key each time', () => {
    expect(generateSigningKey({ format: 'seed' }).keyId).not.toBe(generateSigningKey({ format: 'seed' }).keyId);
  });
});

describe('readPrivateKey', () => {
  it('reads a base64 seed, ignoring surrounding whitespace', () => {
    const key = readPrivateKey(`  ${bytesToBase64(SEED)}\n`);
    expect(key.seed).toEqual(SEED);
    expect(key.publicKey).toEqual(ed25519PublicKeyFromSeed(SEED));
    expect(key.keyObject.asymmetricKeyType).toBe('ed25519');
    expect(key.keyObject.type).toBe('private');
  });

  it('reads the PEM of the same key to the same seed', () => {
    const pem = readPrivateKey(bytesToBase64(SEED)).keyObject.export({ type: 'pkcs8', format: 'pem' }).toString();
    const key = readPrivateKey(pem);
    expect(key.seed).toEqual(SEED);
    expect(seedFromKeyObject(key.keyObject)).toEqual(SEED);
  });

  it('reads a PEM with CRLF line ends', () => {
    const pem = generateSigningKey({ format: 'pem' }).privateKey.replace(/\n/g, '\r\n');
    expect(readPrivateKey(pem).seed).toHaveLength(32);
  });

  it.each([
    ['an empty string', '', 'The private key is empty'],
    ['a 64-byte NaCl secret key', bytesToBase64(new Uint8Array(64)), '64 bytes (a NaCl secret key'],
    ['a 16-byte value', bytesToBase64(new Uint8Array(16)), 'decodes to 16 bytes; an Ed25519 seed is 32 bytes'],
    ['unpadded base64', bytesToBase64(SEED).replace(/=+$/, ''), 'neither a PKCS#8 PEM'],
    ['a hex seed', Buffer.from(SEED).toString('hex'), 'looks like a hex seed'],
    ['text', 'my secret key', 'neither a PKCS#8 PEM'],
    ['a garbled PEM', '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----', 'not a readable PKCS#8 PEM'],
  ])('refuses %s', (_, text, message) => {
    expect(refusal(text)).toContain(message);
  });

  it('refuses an RSA key in PKCS#8 and PKCS#1 PEM, saying so', () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
    expect(refusal(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString())).toBe('The private key is a PKCS#8 rsa key; an Ed25519 key is needed');
    expect(refusal(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString())).toBe('The private key is an RSA key; an Ed25519 key is needed');
  });

  it('refuses an EC key, a public key and an encrypted key, saying so', () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    expect(refusal(ec.privateKey.export({ type: 'sec1', format: 'pem' }).toString())).toContain('EC (ECDSA) key');
    expect(refusal(ec.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString())).toContain('PKCS#8 ec key');
    const ed = generateKeyPairSync('ed25519');
    expect(refusal(ed.publicKey.export({ type: 'spki', format: 'pem' }).toString())).toContain('is a public key');
    const encrypted = ed.privateKey.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'secret' }).toString();
    expect(refusal(encrypted)).toContain('encrypted PKCS#8 key');
  });

  it('never echoes key material in its messages', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const secretLine = rsa.split('\n')[1]!;
    expect(refusal(rsa)).not.toContain(secretLine.slice(0, 12));
    const almostSeed = bytesToBase64(new Uint8Array(31).fill(7));
    expect(refusal(almostSeed)).not.toContain(almostSeed);
  });
});
