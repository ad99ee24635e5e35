import { describe, expect, it } from 'vitest';
import {
  bytesToBase64,
  computeSignedHash,
  hexToBytes,
  issueCertificate,
  keyIdOf,
  serializeCertificate,
  serializeSignatureFile,
  sha256Hex,
  signEd25519,
  signPackage,
  utf8Encode,
  verifyEd25519,
  verifyPackageSignature,
  type PackageFileDigest,
} from '@plughost/host-sdk/core';
import {
  createNodeSigner,
  issueCertificateWithNodeCrypto,
  nodeSignDigest,
  nodeVerify,
  privateKeyObjectFromSeed,
  publicKeyObjectFromRaw,
  rawPublicKeyOf,
  readPrivateKey,
  signPackageWithNodeCrypto,
} from '@plughost/host-sdk/node';

const ROOT_SEED = new Uint8Array(32).fill(0x71);
const DEVELOPER_SEED = new Uint8Array(32).fill(0x72);
const root = readPrivateKey(bytesToBase64(ROOT_SEED));
const developer = readPrivateKey(bytesToBase64(DEVELOPER_SEED));

const manifestBytes = utf8Encode('{ "id": "node-signed", "version": "0.1.0" }');
const entries: [string, Uint8Array][] = [
  ['manifest.json', manifestBytes],
  ['dist/index.html', utf8Encode('<p>hi</p>')],
  ['dist/app.js', utf8Encode('export {};')],
];
const files: PackageFileDigest[] = entries.map(([path, bytes]) => ({ path, sha256: sha256Hex(bytes) }));

// RFC 8032 section 7.1, TEST 2.
const RFC_SEED = hexToBytes('4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb');
const RFC_PUBLIC_KEY = hexToBytes('3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c');
const RFC_SIGNATURE = hexToBytes(
  '92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00',
);

describe('node:crypto Ed25519 helpers', () => {
  it('sign the RFC 8032 vector like the RFC and like TweetNaCl', () => {
    const keyObject = privateKeyObjectFromSeed(RFC_SEED);
    expect(rawPublicKeyOf(keyObject)).toEqual(RFC_PUBLIC_KEY);
    expect(nodeSignDigest(keyObject, new Uint8Array([0x72]))).toEqual(RFC_SIGNATURE);
    expect(nodeVerify(RFC_PUBLIC_KEY, new Uint8Array([0x72]), RFC_SIGNATURE)).toBe(true);
    expect(nodeVerify(publicKeyObjectFromRaw(RFC_PUBLIC_KEY), new Uint8Array([0x72]), RFC_SIGNATURE)).toBe(true);
  });

  it('produce signatures identical to the core signer for the same seed', () => {
    for (const message of [new Uint8Array(), new Uint8Array(32).fill(9), utf8Encode('x'.repeat(5000))]) {
      expect(nodeSignDigest(developer.keyObject, message)).toEqual(signEd25519(DEVELOPER_SEED, message));
    }
  });

  it('verify strictly: weak keys, S + L and wrong lengths are refused', () => {
    const message = new Uint8Array([0x72]);
    const identity = new Uint8Array(32);
    identity[0] = 1;
    const forged = new Uint8Array(64);
    forged.set(identity);
    expect(nodeVerify(identity, message, forged)).toBe(false);
    const L = 2n ** 252n + 27742317777372353535851937790883648493n;
    let s = 0n;
    for (let index = 63; index >= 32; index--) s = (s << 8n) | BigInt(RFC_SIGNATURE[index] ?? 0);
    const malleated = new Uint8Array(RFC_SIGNATURE);
    let value = s + L;
    for (let index = 32; index < 64; index++) {
      malleated[index] = Number(value & 255n);
      value >>= 8n;
    }
    expect(nodeVerify(RFC_PUBLIC_KEY, message, malleated)).toBe(false);
    expect(nodeVerify(RFC_PUBLIC_KEY, message, RFC_SIGNATURE.subarray(0, 63))).toBe(false);
    expect(nodeVerify(RFC_PUBLIC_KEY.subarray(0, 31), message, RFC_SIGNATURE)).toBe(false);
    expect(nodeVerify(RFC_PUBLIC_KEY, new Uint8Array([0x73]), RFC_SIGNATURE)).toBe(false);
  });

  it('refuse a non-Ed25519 key object with a clear message', async () => {
    const { generateKeyPairSync } = await import('node:crypto');
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    expect(() => nodeSignDigest(privateKey, new Uint8Array())).toThrow('Expected an Ed25519 private key, got a ec private key');
    expect(() => createNodeSigner(root.keyObject).sign(new Uint8Array())).not.toThrow();
  });
});

describe('signPackageWithNodeCrypto / issueCertificateWithNodeCrypto', () => {
  it('produce exactly what the TweetNaCl signers produce for the same seeds', () => {
    expect(signPackageWithNodeCrypto({ manifestBytes, files, privateKey: developer.keyObject })).toEqual(
      signPackage({ manifestBytes, files, seed: DEVELOPER_SEED }),
    );
    expect(issueCertificateWithNodeCrypto({ rootPrivateKey: root.keyObject, publicKey: developer.publicKey, developerId: 'd1' })).toEqual(
      issueCertificate({ rootSeed: ROOT_SEED, publicKey: developer.publicKey, developerId: 'd1' }),
    );
  });

  it('accept key text (PEM or seed) as well as key objects', () => {
    const pem = developer.keyObject.export({ type: 'pkcs8', format: 'pem' }).toString();
    const expected = signPackage({ manifestBytes, files, seed: DEVELOPER_SEED });
    expect(signPackageWithNodeCrypto({ manifestBytes, files, privateKey: pem })).toEqual(expected);
    expect(signPackageWithNodeCrypto({ manifestBytes, files, privateKey: bytesToBase64(DEVELOPER_SEED) })).toEqual(expected);
  });

  it('sign a package that the TweetNaCl verifier accepts', () => {
    const signature = signPackageWithNodeCrypto({ manifestBytes, files, privateKey: developer.keyObject });
    const certificate = issueCertificateWithNodeCrypto({
      rootPrivateKey: root.keyObject,
      publicKey: bytesToBase64(developer.publicKey),
      developerId: 'dev_node',
    });
    const result = verifyPackageSignature(
      {
        manifestBytes,
        files,
        signatureJson: serializeSignatureFile(signature),
        certificateJson: serializeCertificate(certificate),
      },
      { rootPublicKey: root.publicKey },
    );
    expect(result).toEqual({
      status: 'valid',
      signer: { keyId: keyIdOf(developer.publicKey), publicKey: bytesToBase64(developer.publicKey), developerId: 'dev_node' },
    });
    expect(verifyEd25519(developer.publicKey, hexToBytes(signature.signedHash), Buffer.from(signature.signature, 'base64'))).toBe(true);
  });

  it('verify a package signed by the TweetNaCl signer with node:crypto', () => {
    const signature = signPackage({ manifestBytes, files, seed: DEVELOPER_SEED });
    const digest = hexToBytes(computeSignedHash(manifestBytes, files));
    expect(nodeVerify(developer.publicKey, digest, Buffer.from(signature.signature, 'base64'))).toBe(true);
    const certificate = issueCertificate({ rootSeed: ROOT_SEED, publicKey: developer.publicKey });
    const { signature: rootSignature, ...unsigned } = certificate;
    const payload = utf8Encode(JSON.stringify(Object.fromEntries(Object.entries(unsigned).sort(([a], [b]) => (a < b ? -1 : 1)))));
    expect(nodeVerify(root.publicKey, payload, Buffer.from(rootSignature, 'base64'))).toBe(true);
  });
});
