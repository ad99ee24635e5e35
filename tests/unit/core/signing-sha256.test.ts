import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { bytesToHex, createSha256, sha256, sha256Hex, utf8Encode } from '@plughost/host-sdk/core';

describe('sha256', () => {
  it('matches the FIPS 180-2 vectors', () => {
    expect(sha256Hex(new Uint8Array())).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex(utf8Encode('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256(utf8Encode('abc')).length).toBe(32);
  });

  it('agrees with node:crypto on a larger input', () => {
    const bytes = Uint8Array.from({ length: 100_000 }, (_, index) => (index * 31) & 255);
    expect(sha256Hex(bytes)).toBe(createHash('sha256').update(bytes).digest('hex'));
  });
});

describe('createSha256', () => {
  it('gives the one-shot digest whatever the chunking', () => {
    const bytes = Uint8Array.from({ length: 10_000 }, (_, index) => index & 255);
    const hasher = createSha256();
    for (let offset = 0; offset < bytes.length; offset += 997) hasher.update(bytes.subarray(offset, offset + 997));
    expect(hasher.digestHex()).toBe(sha256Hex(bytes));
  });

  it('accepts Buffer chunks and returns raw digests too', () => {
    const digest = createSha256().update(Buffer.from('ab')).update(Buffer.from('c')).digest();
    expect(bytesToHex(digest)).toBe(sha256Hex(utf8Encode('abc')));
  });
});
