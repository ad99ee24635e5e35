import type { Context } from 'koa';
import { formatComment, formatServerSentEvent } from '@plughost/host-sdk/core';

const MAXIMUM_BUFFERED_BYTES = 1024 * 1024;

/** An open server-sent event response. */
export interface EventStreamResponse {
  /**
   * Writes one event. A client that stops reading is disconnected once 1 MiB is waiting for it,
   * rather than letting the backend buffer without bound; it reconnects and gets fresh state.
   */
  send(type: string, data: unknown): void;
  /** True once the client went away. */
  readonly closed: boolean;
  /** Resolves when the client goes away or {@link EventStreamResponse.end} is called. */
  readonly done: Promise<void>;
  end(): void;
}

/**
 * Takes over the response for server-sent events: the headers a stream needs behind reverse
 * proxies, a keep-alive comment every `keepAliveMs` (so idle connections are not cut), and a
 * `done` promise for cleanup when the client disconnects.
 */
export function openEventStream(ctx: Context, keepAliveMs = 15_000): EventStreamResponse {
  ctx.respond = false;
  const res = ctx.res;
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
    'X-Accel-Buffering': 'no',
  });
  res.flushHeaders();
  // Firefox resolves `fetch` only once body bytes arrive: without them a client would wait for the
  // first event or keep-alive (15 s) before it knows the stream is open.
  res.write(formatComment('open'));
  let closed = false;
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => (finish = resolve));
  const keepAlive = setInterval(() => {
    if (!closed) res.write(formatComment('keep-alive'));
  }, keepAliveMs);
  const close = (): void => {
    if (closed) return;
    closed = true;
    clearInterval(keepAlive);
    finish();
  };
  res.once('close', close);
  return {
    send(type, data) {
      if (closed) return;
      if (res.writableLength > MAXIMUM_BUFFERED_BYTES) {
        close();
        res.destroy();
        return;
      }
      res.write(formatServerSentEvent({ type, data: JSON.stringify(data) }));
    },
    get closed() {
      return closed;
    },
    done,
    end() {
      close();
      res.end();
    },
  };
}
