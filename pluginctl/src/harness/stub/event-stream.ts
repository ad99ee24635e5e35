import type { ServerResponse } from 'node:http';
import { formatComment, formatServerSentEvent } from '@plughost/host-sdk/core';

/** Time between two keep-alive comments, as the backend sends them. */
const KEEP_ALIVE_MS = 15_000;

/** A server-sent event response. */
export interface StubEventStream {
  /** Writes one event of `type` whose data is `data` as JSON. */
  send(type: string, data: unknown): void;
  /** Resolves when the client went away (or the stub closed its connection). */
  readonly done: Promise<void>;
}

/**
 * Takes over `response` for server-sent events the way the backend's event routes do: its
 * headers, an `open` comment at once (Firefox resolves `fetch` only once body bytes arrive), and a
 * keep-alive comment every 15 s.
 */
export function openEventStream(response: ServerResponse): StubEventStream {
  response.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' });
  response.write(formatComment('open'));
  const keepAlive = setInterval(() => response.write(formatComment('keep-alive')), KEEP_ALIVE_MS);
  keepAlive.unref();
  const done = new Promise<void>((resolve) =>
    response.once('close', () => {
      clearInterval(keepAlive);
      resolve();
    }),
  );
  return {
    send(type, data) {
      if (!response.destroyed) response.write(formatServerSentEvent({ type, data: JSON.stringify(data) }));
    },
    done,
  };
}
