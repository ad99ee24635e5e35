import { createHash } from 'node:crypto';
import { ErrorCode, isPluginHostError } from '@plughost/host-sdk/core';
import { updateCrc32 } from './crc32.js';
import { invalidPackage, quoteEntry } from './package-errors.js';

/** What the central directory promises about one entry's uncompressed data. */
export interface ExpectedEntryData {
  path: string;
  size: number;
  crc32: number;
}

/** The facts measured while the data streamed past. */
export interface VerifiedEntryData {
  /** Lowercase hex SHA-256 of the uncompressed bytes. */
  sha256: string;
  size: number;
}

/**
 * Streams one entry's uncompressed data to `write`, hashing (SHA-256 and CRC-32) and counting on
 * the way, so that verifying costs no second pass.
 *
 * The declared size is a hard ceiling: the first chunk that goes beyond it stops the stream
 * before it is written and before another byte is inflated (a lying size is how a zip bomb
 * passes the limits checked on the central directory). Data that ends short, or whose CRC-32
 * differs, is refused too.
 *
 * @throws PluginHostError `INVALID_PACKAGE` for corrupt data (the stream's own error is the
 *   `cause`; an `INVALID_PACKAGE` from the source is rethrown as it is), a size that lies or a
 *   CRC mismatch. Errors from `write` are rethrown unchanged.
 */
export async function verifyEntryData(
  source: AsyncIterable<Uint8Array>,
  expected: ExpectedEntryData,
  write: (chunk: Uint8Array) => Promise<void>,
): Promise<VerifiedEntryData> {
  const details = { entry: expected.path };
  const hash = createHash('sha256');
  let crc = 0;
  let size = 0;
  const iterator = source[Symbol.asyncIterator]();
  let finished = false;
  try {
    for (;;) {
      let step: IteratorResult<Uint8Array>;
      try {
        step = await iterator.next();
      } catch (error) {
        finished = true;
        // The source's own refusal (bytes after a deflate stream) already names what failed.
        if (isPluginHostError(error, ErrorCode.INVALID_PACKAGE)) throw error;
        throw invalidPackage(`the data of entry ${quoteEntry(expected.path)} is corrupt`, details, error);
      }
      if (step.done) {
        finished = true;
        break;
      }
      const chunk = step.value;
      size += chunk.length;
      if (size > expected.size) {
        throw invalidPackage(`entry ${quoteEntry(expected.path)} inflates beyond its declared size of ${expected.size} bytes`, {
          ...details,
          declaredSize: expected.size,
        });
      }
      crc = updateCrc32(crc, chunk);
      hash.update(chunk);
      await write(chunk);
    }
  } finally {
    // Stops the producer (and with it the inflater) when the loop ends early.
    if (!finished) {
      try {
        await iterator.return?.();
      } catch {
        // The error that stopped the loop is the one to report.
      }
    }
  }
  if (size !== expected.size) {
    throw invalidPackage(`entry ${quoteEntry(expected.path)} ends after ${size} of its declared ${expected.size} bytes`, {
      ...details,
      declaredSize: expected.size,
    });
  }
  if (crc !== expected.crc32) {
    throw invalidPackage(`the CRC-32 of entry ${quoteEntry(expected.path)} does not match`, details);
  }
  return { sha256: hash.digest('hex'), size };
}
