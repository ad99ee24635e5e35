import type { IncomingMessage, ServerResponse } from 'node:http';
import { type DevServerEvent, ErrorCode, encodeDevServerEvent, formatComment, formatServerSentEvent } from '@plughost/host-sdk/core';
import { sendError } from './http-answer.js';

/** The server-sent event stream of a dev server or harness (`GET /__pluginctl/events`). */
export interface DevEventHub {
  /** Sends `event` to every connected client. */
  publish(event: DevServerEvent): void;
  /** Serves GET DEV_EVENTS_PATH as text/event-stream: a hello event first, then every published event; keep-alive comments. */
  handle(request: IncomingMessage, response: ServerResponse): void;
  /** Ends every stream; later requests are answered 204 (no content: do not reconnect). */
  close(): void;
}

/** How often an idle stream gets a comment, so proxies and idle timeouts keep it open. */
export const KEEP_ALIVE_MS = 15_000;
/** A client that stops reading is dropped once this much waits for it (it reconnects and gets a fresh hello). */
const MAXIMUM_BUFFERED_BYTES = 1024 * 1024;

function frame(event: DevServerEvent): string {
  return formatServerSentEvent(encodeDevServerEvent(event));
}

/**
 * Creates the event stream of a dev server: every client gets `hello` with `pluginIds()` at the
 * time it connects, then each {@link DevEventHub.publish}ed event (`building`, `rebuilt`,
 * `build-failed`), in the wire format of core's `encodeDevServerEvent`.
 *
 * @example
 * ```ts
 * const hub = createDevEventHub(() => ['com.example.hello']);
 * http.createServer((req, res) => (req.url === DEV_EVENTS_PATH ? hub.handle(req, res) : serveFile(req, res)));
 * hub.publish({ type: 'building', pluginId: 'com.example.hello', at: new Date().toISOString() });
 * ```
 */
export function createDevEventHub(pluginIds: () => readonly string[]): DevEventHub {
  const clients = new Set<ServerResponse>();
  let closed = false;
  let keepAlive: ReturnType<typeof setInterval> | undefined;

  const drop = (response: ServerResponse): void => {
    clients.delete(response);
    if (clients.size === 0 && keepAlive !== undefined) {
      clearInterval(keepAlive);
      keepAlive = undefined;
    }
  };
  const write = (response: ServerResponse, text: string): void => {
    if (response.writableLength > MAXIMUM_BUFFERED_BYTES) {
      drop(response);
      response.destroy();
      return;
    }
    response.write(text);
  };

  return {
    publish(event) {
      if (closed) return;
      const text = frame(event);
      for (const response of clients) write(response, text);
    },
    handle(request, response) {
      if (request.method !== 'GET') {
        sendError(response, 405, ErrorCode.METHOD_NOT_ALLOWED, 'The event stream answers GET only', { Allow: 'GET' });
        return;
      }
      if (closed) {
        // 204 tells an EventSource not to reconnect: the server is going away.
        response.writeHead(204, { 'Cache-Control': 'no-store' });
        response.end();
        return;
      }
      response.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-store',
        'X-Accel-Buffering': 'no',
      });
      response.write(frame({ type: 'hello', pluginIds: [...pluginIds()] }));
      clients.add(response);
      response.once('close', () => drop(response));
      if (keepAlive === undefined) {
        keepAlive = setInterval(() => {
          for (const client of clients) write(client, formatComment('keep-alive'));
        }, KEEP_ALIVE_MS);
        keepAlive.unref();
      }
    },
    close() {
      closed = true;
      for (const response of [...clients]) {
        drop(response);
        response.end();
      }
    },
  };
}
