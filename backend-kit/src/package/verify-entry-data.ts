import { createHash } from 'node:crypto';
import { ErrorCode, isPluginHostError, type PluginHostError } from '@plughost/host-sdk/core';
import { updateCrc32 } from './crc32.js';
import { invalidPackage, quoteEntry } from './package-errors.js';

/** What the central directory promises about one entry's uncompressed data. */
export interface ExpectedEntryData {
  path: string;
  size: number;
  crc32: number;
}

/** The refusal of data that goes past its declared size (a lying size is how a zip bomb passes the limits). */
export function beyondDeclaredSize(expected: ExpectedEntryData): PluginHostError {
  return invalidPackage(`entry ${quoteEntry(expected.path)} inflates beyond its declared size of ${expected.size} bytes`, {
    entry: expected.path,
    declaredSize: expected.size,
  });
}

/** The refusal of data that could not be read or inflated (its error is the `cause`). */
export function corruptData(expected: ExpectedEntryData, cause: unknown): PluginHostError {
  return invalidPackage(`the data of entry ${quoteEntry(expected.path)} is corrupt`, { entry: expected.path }, cause);
}

/** Refuses a complete entry whose size or CRC-32 is not the declared one. */
function checkComplete(expected: ExpectedEntryData, size: number, crc: number): void {
  if (size !== expected.size) {
    throw invalidPackage(`entry ${quoteEntry(expected.path)} ends after ${size} of its declared ${expected.size} bytes`, {
      entry: expected.path,
      declaredSize: expected.size,
    });
  }
  if (crc !== expected.crc32) {
    throw invalidPackage(`the CRC-32 of entry ${quoteEntry(expected.path)} does not match`, { entry: expected.path });
  }
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
        throw corruptData(expected, error);
      }
      if (step.done) {
        finished = true;
        break;
      }
      const chunk = step.value;
      size += chunk.length;
      if (size > expected.size) throw beyondDeclaredSize(expected);
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
  checkComplete(expected, size, crc);
  return { sha256: hash.digest('hex'), size };
}

/**
 * Verifies one entry's uncompressed data held whole in memory (a small entry, inflated in one
 * step by {@link readWholeEntryData}): the same checks and refusals as {@link verifyEntryData},
 * before anything is written.
 *
 * @throws PluginHostError `INVALID_PACKAGE` for a size that lies or a CRC mismatch.
 */
export function verifyWholeEntry(data: Uint8Array, expected: ExpectedEntryData): VerifiedEntryData {
  if (data.length > expected.size) throw beyondDeclaredSize(expected);
  checkComplete(expected, data.length, updateCrc32(0, data));
  return { sha256: createHash('sha256').update(data).digest('hex'), size: data.length };
}
