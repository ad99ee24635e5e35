/**
 * Helpers of the body parser and upload tests: a real Koa app on a loopback port whose outermost
 * middleware reports when each request's chain has settled (so a test can await the clean-up of a
 * request whose client is gone), streamed requests that the test writes and aborts itself, and
 * hand-built multipart bodies.
 */
import { type ClientRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders, type Server, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa, { type Middleware } from 'koa';
import { silentLogger } from '@plughost/backend-kit';
import { errorHandler } from '../../../../backend-kit/src/middleware/error-handler.js';

/** How one request's middleware chain ended: the status and body the error handler left. */
export interface Outcome {
  readonly path: string;
  readonly status: number;
  readonly body: unknown;
}

/** A running test app. */
export interface BodyTestApp {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /**
   * What Koa reported on its `error` event: errors of connections that failed after the chain
   * (a client that cut the connection), kept here instead of printed.
   */
  readonly connectionErrors: readonly Error[];
  /** Resolves when the next request reaches the app (its headers are in; its body may not be). */
  nextArrival(): Promise<string>;
  /** The outcome of the next request whose chain settles (in the order they settle). */
  nextOutcome(): Promise<Outcome>;
  close(): Promise<void>;
}

/** Values in the order they happen, each handed to the first waiting `next()` or kept for the next one. */
function eventQueue<T>(): { push(value: T): void; next(): Promise<T> } {
  const kept: T[] = [];
  const waiting: Array<(value: T) => void> = [];
  return {
    push(value) {
      const waiter = waiting.shift();
      if (waiter) waiter(value);
      else kept.push(value);
    },
    next() {
      if (kept.length > 0) return Promise.resolve(kept.shift() as T);
      return new Promise((resolve) => waiting.push(resolve));
    },
  };
}

/** Starts Koa with the backend's error handler and then `middleware`, on a free loopback port. */
export async function startBodyTestApp(...middleware: Middleware[]): Promise<BodyTestApp> {
  const arrivals = eventQueue<string>();
  const outcomes = eventQueue<Outcome>();
  const connectionErrors: Error[] = [];
  const app = new Koa();
  app.on('error', (error: Error) => connectionErrors.push(error));
  app.use(async function reportSettled(ctx, next) {
    arrivals.push(ctx.path);
    try {
      await next();
    } finally {
      outcomes.push({ path: ctx.path, status: ctx.status, body: ctx.body });
    }
  });
  app.use(errorHandler(silentLogger));
  for (const step of middleware) app.use(step);
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connectionErrors,
    nextArrival: arrivals.next,
    nextOutcome: outcomes.next,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A response read in full. */
export interface ReadResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
}

/** A request the test writes piece by piece (chunked unless `Content-Length` is given). */
export interface StreamedRequest {
  readonly request: ClientRequest;
  /** The response, as soon as the server answers (possibly before the body is complete). */
  readonly response: Promise<ReadResponse>;
}

/** Opens a POST to `origin + path` and sends its headers at once, without a body yet. */
export function streamedRequest(origin: string, path: string, headers: OutgoingHttpHeaders): StreamedRequest {
  const url = new URL(path, origin);
  const outgoing = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers });
  const response = new Promise<ReadResponse>((resolve, reject) => {
    outgoing.on('response', (incoming) => {
      let text = '';
      incoming.setEncoding('utf8');
      incoming.on('data', (chunk: string) => {
        text += chunk;
      });
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, text }));
      incoming.on('error', reject);
    });
    outgoing.on('error', reject);
  });
  // A test that aborts the request on purpose does not read `response`: its rejection is expected.
  response.catch(() => {});
  outgoing.flushHeaders();
  return { request: outgoing, response };
}

/** POSTs `body` in one piece with the given headers (Content-Length set from the body). */
export async function post(origin: string, path: string, headers: OutgoingHttpHeaders, body: Uint8Array | string): Promise<ReadResponse> {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  const sent = streamedRequest(origin, path, { ...headers, 'Content-Length': bytes.length });
  sent.request.end(bytes);
  return sent.response;
}

/** The `error` object of a JSON error response. */
export function errorOfText(response: ReadResponse): { code: string; message: string; [key: string]: unknown } {
  return (JSON.parse(response.text) as { error: { code: string; message: string } }).error;
}

/** One part of a hand-built multipart body: a file part when `filename` is given, else a text field. */
export interface PartSpec {
  readonly name: string;
  readonly filename?: string;
  readonly content: string | Uint8Array;
}

export const BOUNDARY = 'test-boundary-5b1f0c';
export const MULTIPART_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

/** The opening of one part (delimiter and headers), before its content. */
export function partHead(part: Omit<PartSpec, 'content'>): Buffer {
  const disposition = `form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`;
  const type = part.filename === undefined ? '' : 'Content-Type: application/octet-stream\r\n';
  return Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`);
}

/** A multipart body of `parts`; `closed: false` leaves out the closing delimiter (a truncated upload). */
export function multipartBody(parts: readonly PartSpec[], options: { closed?: boolean } = {}): Buffer {
  const pieces: Buffer[] = [];
  for (const part of parts) pieces.push(partHead(part), Buffer.from(part.content), Buffer.from('\r\n'));
  if (options.closed !== false) pieces.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(pieces);
}
