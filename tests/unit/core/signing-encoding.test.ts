import { describe, expect, it } from 'vitest';
import { base64ToBytes, bytesEqual, bytesToBase64, bytesToHex, hexToBytes, isPluginHostError, utf8Decode, utf8Encode } from '@plughost/host-sdk/core';

function invalidArgument(run: () => unknown): boolean {
  try {
    run();
    return false;
  } catch (error) {
    return isPluginHostError(error, 'INVALID_ARGUMENT');
  }
}

describe('utf8Encode / utf8Decode', () => {
  it('round-trips text outside the BMP', () => {
    const text = 'héllo 🎮 ✓';
    expect(utf8Decode(utf8Encode(text))).toBe(text);
    expect([...utf8Encode('é')]).toEqual([0xc3, 0xa9]);
  });

  it('refuses malformed UTF-8 instead of replacing it', () => {
    expect(invalidArgument(() => utf8Decode(new Uint8Array([0xc3])))).toBe(true);
    expect(invalidArgument(() => utf8Decode(new Uint8Array([0xed, 0xa0, 0x80])))).toBe(true); // a surrogate
  });

  it('keeps a byte order mark as a character', () => {
    expect(utf8Decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d]))).toBe('\ufeff{}');
  });
});

describe('bytesToHex / hexToBytes', () => {
  it('writes lowercase hex and reads it back', () => {
    expect(bytesToHex(new Uint8Array([0, 1, 0xab, 0xff]))).toBe('0001abff');
    expect([...hexToBytes('0001abff')]).toEqual([0, 1, 0xab, 0xff]);
    expect(hexToBytes('').length).toBe(0);
  });

  it.each(['ABFF', 'abc', 'zz', ' ab', '0x12'])('refuses %j', (text) => {
    expect(invalidArgument(() => hexToBytes(text))).toBe(true);
  });
});

describe('bytesToBase64 / base64ToBytes', () => {
  it.each([
    ['', ''],
    ['f', 'Zg=='],
    ['fo', 'Zm8='],
    ['foo', 'Zm9v'],
    ['foob', 'Zm9vYg=='],
    ['fooba', 'Zm9vYmE='],
    ['foobar', 'Zm9vYmFy'],
  ])('RFC 4648 vector %j <-> %j', (text, base64) => {
    expect(bytesToBase64(utf8Encode(text))).toBe(base64);
    expect(utf8Decode(base64ToBytes(base64))).toBe(text);
  });

  it('round-trips every byte value and agrees with Buffer', () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, index) => index);
    const text = bytesToBase64(bytes);
    expect(text).toBe(Buffer.from(bytes).toString('base64'));
    expect(bytesEqual(base64ToBytes(text), bytes)).toBe(true);
  });

  it.each([
    ['missing padding', 'Zg'],
    ['missing one pad', 'Zm8'],
    ['URL-safe alphabet', '-_8='],
    ['whitespace', 'Zm9v\nYmFy'],
    ['trailing space', 'Zm9v '],
    ['stray padding', 'Zm9v===='],
    ['padding in the middle', 'Zg==Zm9v'],
    ['non-zero bits after the last byte (Zh== is a second spelling of Zg==)', 'Zh=='],
    ['non-zero bits after the last two bytes', 'Zm9='],
    ['wrong length', 'Zm9vY'],
    ['non-alphabet character', 'Zm9*'],
  ])('refuses %s', (_, text) => {
    expect(invalidArgument(() => base64ToBytes(text))).toBe(true);
  });
});

describe('bytesEqual', () => {
  it('compares length and content', () => {
    expect(bytesEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2]))).toBe(true);
    expect(bytesEqual(new Uint8Array([1, 2]), new Uint8Array([1, 3]))).toBe(false);
    expect(bytesEqual(new Uint8Array([1]), new Uint8Array([1, 0]))).toBe(false);
  });
});
