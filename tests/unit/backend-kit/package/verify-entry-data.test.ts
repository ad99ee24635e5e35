import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@plughost/host-sdk/core';
import { verifyEntryData } from '../../../../backend-kit/src/package/verify-entry-data.js';
import { crc32 } from '../../../support/crc32.js';

async function* chunksOf(data: Uint8Array, size: number, pulled: { count: number; returned: boolean }) {
  try {
    for (let offset = 0; offset < data.length; offset += size) {
      pulled.count++;
      yield data.subarray(offset, offset + size);
    }
  } finally {
    pulled.returned = true;
  }
}

describe('verifyEntryData', () => {
  const data = Buffer.alloc(100 * 1024, 0x61);

  it('writes every chunk and returns the SHA-256 and size', async () => {
    const written: Uint8Array[] = [];
    const result = await verifyEntryData(
      chunksOf(data, 4096, { count: 0, returned: false }),
      { path: 'a', size: data.length, crc32: crc32(data) },
      async (chunk) => {
        written.push(chunk);
      },
    );
    expect(result).toEqual({ sha256: createHash('sha256').update(data).digest('hex'), size: data.length });
    expect(Buffer.concat(written)).toEqual(data);
  });

  it('stops pulling at the first chunk past the declared size, and writes none of it', async () => {
    const pulled = { count: 0, returned: false };
    let writes = 0;
    const promise = verifyEntryData(chunksOf(data, 1024, pulled), { path: 'a', size: 2048, crc32: 0 }, async () => {
      writes++;
    });
    await expect(promise).rejects.toMatchObject({
      code: ErrorCode.INVALID_PACKAGE,
      details: { entry: 'a', declaredSize: 2048 },
    });
    expect(pulled.count).toBe(3);
    expect(writes).toBe(2);
    expect(pulled.returned).toBe(true);
  });

  it('refuses data that ends short, and a CRC-32 mismatch', async () => {
    const source = () => chunksOf(data, 1024, { count: 0, returned: false });
    const ignore = async (): Promise<void> => {};
    await expect(verifyEntryData(source(), { path: 'a', size: data.length + 1, crc32: crc32(data) }, ignore)).rejects.toMatchObject({
      code: ErrorCode.INVALID_PACKAGE,
      message: /ends after/,
    });
    await expect(verifyEntryData(source(), { path: 'a', size: data.length, crc32: (crc32(data) ^ 1) >>> 0 }, ignore)).rejects.toMatchObject({
      code: ErrorCode.INVALID_PACKAGE,
      message: /CRC-32/,
    });
  });

  it('turns a failing source into INVALID_PACKAGE, keeping the cause', async () => {
    const cause = new Error('invalid stored block lengths');
    async function* broken(): AsyncGenerator<Uint8Array> {
      yield Buffer.from('x');
      throw cause;
    }
    const error = await verifyEntryData(broken(), { path: 'a', size: 10, crc32: 0 }, async () => {}).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: ErrorCode.INVALID_PACKAGE, message: /corrupt/ });
    expect((error as { cause?: unknown }).cause).toBe(cause);
  });

  it('rethrows a failing write unchanged and stops the source', async () => {
    const pulled = { count: 0, returned: false };
    const diskFull = Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' });
    const expected = { path: 'a', size: data.length, crc32: 0 };
    const promise = verifyEntryData(chunksOf(data, 1024, pulled), expected, async () => {
      throw diskFull;
    });
    await expect(promise).rejects.toBe(diskFull);
    expect(pulled.returned).toBe(true);
    expect(pulled.count).toBe(1);
  });
});
