import type { Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type { GuardedResponse } from './guarded-fetcher.js';
import { mediaTypeOf } from './proxy-response.js';

/** The SSE frame that reports an upstream failure after the stream started. */
export function errorEvent(code: string, message: string): string {
  // A leading blank line ends any event the upstream left half-written, so the error event is
  // always parsed on its own.
  return `\n\nevent: error\ndata: ${JSON.stringify({ code, message })}\n\n`;
}

/** One upstream chunk of a non-SSE body as one event, each of its lines a `data:` line. */
function chunkAsEvent(text: string): string {
  const lines = text.split(/\r\n|\r|\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return `${lines.map((line) => `data: ${line}`).join('\n')}\n\n`;
}

function waitForDrain(out: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      out.off('drain', done);
      out.off('close', done);
      resolve();
    };
    out.once('drain', done);
    out.once('close', done);
  });
}

/**
 * Copies an upstream body to the caller's response as server-sent events, chunk by chunk as it
 * arrives. An upstream `text/event-stream` is passed through byte for byte; any other body is
 * framed, one event per chunk. Backpressure: the upstream is not read while the caller's socket
 * is full. Every chunk restarts the idle deadline. When the caller goes away the upstream is
 * aborted; when the upstream fails, an `event: error` frame (see {@link errorEvent}) ends the
 * stream. Never throws.
 */
export async function forwardEventStream(upstream: GuardedResponse, out: Writable): Promise<void> {
  const passThrough = mediaTypeOf(upstream.headers['content-type']) === 'text/event-stream';
  const decoder = new StringDecoder('utf8');
  try {
    for await (const chunk of upstream.body) {
      upstream.touch();
      const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      const text = passThrough ? '' : decoder.write(bytes);
      if (!passThrough && text === '') continue;
      const frame = passThrough ? bytes : chunkAsEvent(text);
      if (out.destroyed) break;
      if (!out.write(frame)) await waitForDrain(out);
    }
    if (!passThrough) {
      const rest = decoder.end();
      if (rest !== '' && !out.destroyed) out.write(chunkAsEvent(rest));
    }
    upstream.settle();
    if (out.destroyed) upstream.abort();
    else out.end();
  } catch (error) {
    upstream.settle();
    upstream.abort();
    if (out.destroyed || out.writableEnded) return;
    const failure = upstream.toError(error);
    out.end(errorEvent(failure.code, failure.message));
  }
}
