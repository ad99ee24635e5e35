import { describe, expect, it } from 'vitest';
import {
  certificatePayload,
  isPluginHostError,
  issueCertificate,
  parseCertificate,
  parseSignatureFile,
  serializeCertificate,
  serializeSignatureFile,
  signPackage,
  utf8Decode,
  utf8Encode,
  validateCertificate,
  validateSignatureFile,
} from '@plughost/host-sdk/core';
import { bytesOfJson, DEVELOPER_PUBLIC_KEY, DEVELOPER_SEED, MANIFEST_TEXT, ROOT_SEED } from './signing-test-kit.js';

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (isPluginHostError(error, 'SIGNATURE_INVALID')) return error.message;
    throw error;
  }
  throw new Error('expected SIGNATURE_INVALID');
}

const signature = signPackage({ manifestBytes: utf8Encode(MANIFEST_TEXT), files: [], seed: DEVELOPER_SEED });
const certificate = issueCertificate({ rootSeed: ROOT_SEED, publicKey: DEVELOPER_PUBLIC_KEY, developerId: 'dev_42' });

describe('parseSignatureFile', () => {
  it('round-trips what serializeSignatureFile writes', () => {
    expect(parseSignatureFile(serializeSignatureFile(signature))).toEqual(signature);
    expect(utf8Decode(serializeSignatureFile(signature))).toMatch(/^\{\n {2}"alg": "Ed25519",/);
  });

  it.each([
    ['a missing field', { ...signature, signedHash: undefined }, 'field "signedHash" is missing'],
    ['a wrong alg', { ...signature, alg: 'RS256' }, 'field "alg" must be "Ed25519"'],
    ['a wrong type', { ...signature, signerKeyId: 42 }, 'field "signerKeyId" must be a string'],
    ['an uppercase hash', { ...signature, signedHash: signature.signedHash.toUpperCase() }, '"signedHash" must be 64 lowercase hex'],
    ['a short key id', { ...signature, signerKeyId: 'abcd' }, '"signerKeyId" must be 16 lowercase hex'],
    ['unpadded base64', { ...signature, signature: signature.signature.replace(/=+$/, '') }, 'not standard padded base64'],
    ['a 32-byte signature', { ...signature, signature: Buffer.alloc(32).toString('base64') }, 'must encode 64 bytes, not 32'],
    ['an unknown field', { ...signature, comment: 'hi' }, 'unknown field "comment"'],
    ['an array', [signature], 'must be a JSON object'],
    ['null', null, 'must be a JSON object'],
  ])('refuses %s', (_, value, message) => {
    expect(refusal(() => parseSignatureFile(bytesOfJson(value)))).toContain(message);
    expect(refusal(() => validateSignatureFile(JSON.parse(JSON.stringify(value)) as unknown))).toContain(message);
  });

  it('refuses bytes that are not UTF-8 JSON', () => {
    expect(refusal(() => parseSignatureFile(new Uint8Array([0xff, 0xfe])))).toBe('signature.json: is not valid UTF-8');
    expect(refusal(() => parseSignatureFile(utf8Encode('{"alg":')))).toBe('signature.json: is not valid JSON');
    expect(refusal(() => parseSignatureFile(utf8Encode(`\ufeff${JSON.stringify(signature)}`)))).toBe('signature.json: is not valid JSON');
  });
});

describe('parseCertificate', () => {
  it('round-trips what serializeCertificate writes', () => {
    expect(parseCertificate(serializeCertificate(certificate))).toEqual(certificate);
  });

  it('keeps further fields, which the root signature covers', () => {
    const extended = issueCertificate({
      rootSeed: ROOT_SEED,
      publicKey: DEVELOPER_PUBLIC_KEY,
      extra: { issuedAt: '2026-01-01T00:00:00Z', scopes: ['publish'] },
    });
    const parsed = parseCertificate(serializeCertificate(extended));
    expect(parsed.issuedAt).toBe('2026-01-01T00:00:00Z');
    expect(parsed.scopes).toEqual(['publish']);
    expect(utf8Decode(certificatePayload(parsed))).toContain('"scopes":["publish"]');
  });

  it('keeps an own __proto__ field as data', () => {
    const text = JSON.stringify(certificate).replace('{', '{"__proto__":{"x":1},');
    const parsed = parseCertificate(utf8Encode(text));
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.keys(parsed)).toContain('__proto__');
    expect(utf8Decode(certificatePayload(parsed))).toMatch(/^\{"__proto__":\{"x":1\},"algorithm"/);
  });

  it.each([
    ['a missing publicKey', { ...certificate, publicKey: undefined }, 'field "publicKey" is missing'],
    ['a wrong algorithm', { ...certificate, algorithm: 'Ed448' }, 'field "algorithm" must be "Ed25519"'],
    ['alg instead of algorithm', { ...certificate, algorithm: undefined, alg: 'Ed25519' }, 'field "algorithm" is missing'],
    ['a 31-byte public key', { ...certificate, publicKey: Buffer.alloc(31).toString('base64') }, 'must encode 32 bytes'],
    ['a missing issuer', { ...certificate, issuer: undefined }, 'field "issuer" is missing'],
    ['an issuer string', { ...certificate, issuer: 'root' }, 'field "issuer": must be a JSON object'],
    ['an issuer without keyId', { ...certificate, issuer: {} }, 'field "keyId" is missing'],
    ['an empty developerId', { ...certificate, developerId: '' }, 'field "developerId" must be a non-empty string'],
    ['a numeric developerId', { ...certificate, developerId: 7 }, 'field "developerId" must be a non-empty string'],
    ['a missing signature', { ...certificate, signature: undefined }, 'field "signature" is missing'],
  ])('refuses %s', (_, value, message) => {
    expect(refusal(() => parseCertificate(bytesOfJson(value)))).toContain(message);
    expect(refusal(() => validateCertificate(JSON.parse(JSON.stringify(value)) as unknown))).toContain(message);
  });

  it('refuses a number that JSON.parse turns into Infinity', () => {
    const text = JSON.stringify(certificate).replace('{', '{"serial":1e400,');
    expect(refusal(() => parseCertificate(utf8Encode(text)))).toContain('canonical JSON cannot represent');
  });
});

describe('certificatePayload', () => {
  it('is the canonical JSON of everything but the signature', () => {
    const payload = utf8Decode(certificatePayload(certificate));
    expect(payload).toBe(
      `{"algorithm":"Ed25519","developerId":"dev_42","issuer":{"keyId":"${certificate.issuer.keyId}"},"keyId":"${certificate.keyId}","publicKey":"${certificate.publicKey}"}`,
    );
  });
});
