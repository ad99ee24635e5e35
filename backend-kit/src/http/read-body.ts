import type { Context } from 'koa';
import { RequestBodyError, bodyTooLarge } from './request-body-error.js';

// `fatal`: bytes that are not UTF-8 are refused, never replaced by U+FFFD and then parsed. A
// leading byte order mark is dropped (the decoder's default).
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Refuses bodies whose bytes are not the text itself: a compressed body (decompressing would make
 * the limit count something other than what is parsed, and no client of these routes compresses)
 * and a charset other than UTF-8 (RFC 8259 section 8.1; reading Latin-1 as UTF-8 would silently
 * change the data).
 */
function refuseOtherEncodings(ctx: Context): void {
  const coding = ctx.get('Content-Encoding').trim().toLowerCase();
  if (coding !== '' && coding !== 'identity') {
    throw new RequestBodyError(415, `Unsupported Content-Encoding "${coding}": send the request body uncompressed`);
  }
  const charset = ctx.request.charset.toLowerCase();
  if (charset !== '' && charset !== 'utf-8' && charset !== 'utf8') {
    throw new RequestBodyError(415, `Unsupported charset "${charset}": send the request body as utf-8`);
  }
}

/**
 * The raw bytes of the request body, at most `limit`. A declared `Content-Length` over the limit is
 * refused before a byte is read; a body without one (chunked) is counted while it streams and
 * refused as soon as it passes the limit, without waiting for its end. A client that goes away
 * before the end settles the promise with a 400.
 *
 * @throws RequestBodyError 413 over the limit, 400 when the body ends early.
 */
export function readBodyBytes(ctx: Context, limit: number): Promise<Buffer> {
  const declared = ctx.request.length;
  if (declared !== undefined && declared > limit) return Promise.reject(bodyTooLarge(limit));
  const request = ctx.req;
  // An application-wide body parser ran first: its stream is gone, and waiting for it would hang.
  if (request.readableEnded) return Promise.reject(new Error('The request body was already read by another body parser'));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const settle = (error: Error | null): void => {
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onError);
      request.off('close', onClose);
      if (error) {
        // Read no further; Node discards the rest once the answer is sent.
        request.pause();
        reject(error);
      } else {
        resolve(Buffer.concat(chunks, received));
      }
    };
    function onData(chunk: Buffer): void {
      received += chunk.length;
      if (received > limit) settle(bodyTooLarge(limit));
      else chunks.push(chunk);
    }
    function onEnd(): void {
      settle(null);
    }
    function onError(): void {
      settle(new RequestBodyError(400, 'The request body could not be read: the connection failed'));
    }
    function onClose(): void {
      if (!request.complete) settle(new RequestBodyError(400, 'The client closed the connection before the request body was complete'));
    }
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onError);
    request.on('close', onClose);
  });
}

/**
 * The request body as UTF-8 text, at most `limit` bytes (see {@link readBodyBytes}).
 *
 * @throws RequestBodyError 415 for a compressed body or another charset, 400 for bytes that are
 *   not UTF-8, 413 over the limit.
 */
export async function readBodyText(ctx: Context, limit: number): Promise<string> {
  refuseOtherEncodings(ctx);
  const bytes = await readBodyBytes(ctx, limit);
  try {
    return utf8.decode(bytes);
  } catch {
    throw new RequestBodyError(400, 'The request body is not valid UTF-8 text');
  }
}
