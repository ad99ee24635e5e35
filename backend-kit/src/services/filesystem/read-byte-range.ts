import { PluginHostError } from '@plughost/host-sdk/core';
import { FILESYSTEM_LIMITS } from './filesystem-limits.js';
import { openForReading } from './open-for-reading.js';

/**
 * Bytes `start` to `start + length` of a file (to its end when `length` is omitted; a range past
 * the end is cut at the end). Only those bytes are read. Over
 * {@link FILESYSTEM_LIMITS.maximumTransferBytes} is 400 `INVALID_ARGUMENT`.
 */
export async function readByteRange(path: string, start = 0, length?: number): Promise<Uint8Array> {
  const { handle, size } = await openForReading(path);
  try {
    const from = Math.min(start, size);
    const count = Math.min(length ?? size - from, size - from);
    if (count > FILESYSTEM_LIMITS.maximumTransferBytes) {
      throw new PluginHostError('INVALID_ARGUMENT', `Read at most ${FILESYSTEM_LIMITS.maximumTransferBytes} bytes at a time (use start and length)`, {
        limit: FILESYSTEM_LIMITS.maximumTransferBytes,
      });
    }
    const buffer = Buffer.alloc(count);
    let filled = 0;
    while (filled < count) {
      const { bytesRead } = await handle.read(buffer, filled, count - filled, from + filled);
      if (bytesRead === 0) break; // The file shrank meanwhile.
      filled += bytesRead;
    }
    return buffer.subarray(0, filled);
  } finally {
    await handle.close();
  }
}
