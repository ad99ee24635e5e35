import { StringDecoder } from 'node:string_decoder';
import { PluginHostError } from '@plughost/host-sdk/core';
import { FILESYSTEM_LIMITS } from './filesystem-limits.js';
import { openForReading } from './open-for-reading.js';

const CHUNK_BYTES = 64 * 1024;

/**
 * Characters `start` to `start + length` of a UTF-8 file (to its end when `length` is
 * omitted). Characters are Unicode code points, what a user counts: `é` is one, and so is `😀`
 * (two UTF-16 units, four bytes). Invalid UTF-8 reads as U+FFFD, one character per bad sequence;
 * a leading byte-order mark is kept as a character. The file is decoded from its start (a
 * character offset cannot be seeked to) and reading stops once the range is complete. An answer
 * over {@link FILESYSTEM_LIMITS.maximumTransferBytes} UTF-8 bytes is 400 `INVALID_ARGUMENT`.
 */
export async function readTextRange(path: string, start = 0, length?: number): Promise<string> {
  const { handle } = await openForReading(path);
  const end = length === undefined ? Number.POSITIVE_INFINITY : start + length;
  const decoder = new StringDecoder('utf8');
  const parts: string[] = [];
  let index = 0;
  let bytes = 0;
  const take = (text: string): boolean => {
    for (const character of text) {
      if (index >= end) return false;
      if (index >= start) {
        parts.push(character);
        bytes += Buffer.byteLength(character);
        if (bytes > FILESYSTEM_LIMITS.maximumTransferBytes) {
          throw new PluginHostError(
            'INVALID_ARGUMENT',
            `Read at most ${FILESYSTEM_LIMITS.maximumTransferBytes} bytes of text at a time (use start and length)`,
            {
              limit: FILESYSTEM_LIMITS.maximumTransferBytes,
            },
          );
        }
      }
      index += 1;
    }
    return index < end;
  };
  try {
    const buffer = Buffer.alloc(CHUNK_BYTES);
    let position = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, position);
      if (bytesRead === 0) {
        take(decoder.end());
        break;
      }
      position += bytesRead;
      if (!take(decoder.write(buffer.subarray(0, bytesRead)))) break;
    }
    return parts.join('');
  } finally {
    await handle.close();
  }
}
