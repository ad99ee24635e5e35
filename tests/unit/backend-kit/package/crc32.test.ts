import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { crc32, updateCrc32 } from '../../../../backend-kit/src/package/crc32.js';
import { crc32 as testCrc32 } from '../../../support/crc32.js';

describe('crc32', () => {
  it('matches the standard check values', () => {
    expect(crc32(new Uint8Array(0))).toBe(0);
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
    expect(crc32(Buffer.from('The quick brown fox jumps over the lazy dog'))).toBe(0x414fa339);
  });

  it('gives the same result in chunks as in one piece, and agrees with the test writer', () => {
    const data = randomBytes(10_000);
    let crc = 0;
    for (let offset = 0; offset < data.length; offset += 333) {
      crc = updateCrc32(crc, data.subarray(offset, offset + 333));
    }
    expect(crc).toBe(crc32(data));
    expect(crc).toBe(testCrc32(data));
  });
});
