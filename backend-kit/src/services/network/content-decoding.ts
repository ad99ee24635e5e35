import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

/** The content codings the fetcher asks for, and so must decode. */
export const ACCEPTED_ENCODINGS = 'gzip, deflate, br';

/**
 * Wraps a response body in the decoder of its `Content-Encoding`, or returns it unchanged with
 * `decoded: false` for identity and codings we do not know. Size limits are applied by the reader
 * to the decoded bytes, so a small compressed bomb cannot exceed them.
 */
export function decodeContent(body: Readable, encoding: string | undefined): { stream: Readable; decoded: boolean } {
  const coding = (encoding ?? '').trim().toLowerCase();
  const decoder =
    coding === 'gzip' || coding === 'x-gzip' ? createGunzip() : coding === 'deflate' ? createInflate() : coding === 'br' ? createBrotliDecompress() : null;
  if (!decoder) return { stream: body, decoded: false };
  // Errors on either side must end both: a reset upstream surfaces on the decoder.
  body.once('error', (error) => decoder.destroy(error));
  decoder.once('close', () => body.destroy());
  body.pipe(decoder);
  return { stream: decoder, decoded: true };
}
