import { request, type IncomingMessage } from 'node:http';
import { PluginHostError } from '@plughost/host-sdk/core';
import { pinnedLookup } from '../network/pinned-lookup.js';

/**
 * `localhost` is answered with the loopback addresses themselves, never by asking DNS (or a
 * hosts file) which could name another machine: a dev server is by definition on this one.
 */
const LOCALHOST_ADDRESSES = [
  { address: '127.0.0.1', family: 4 },
  { address: '::1', family: 6 },
] as const;

/** Options of {@link requestLoopback}. */
export interface LoopbackRequestOptions {
  /** `Accept` header. */
  readonly accept: string;
  /** Stops the request (and the response body) when fired. */
  readonly signal: AbortSignal;
}

/**
 * Sends `GET url` to a dev server and resolves with the response head (the body is a stream).
 * `url` must have passed core's `checkDevServerUrl` (an `http:` URL on `127.0.0.1`, `[::1]` or
 * `localhost`); anything else is refused here too, so no caller can point it elsewhere.
 * Redirects are not followed: the launcher asks for exactly one path.
 *
 * @throws PluginHostError `INVALID_ARGUMENT` for a URL that is not a loopback `http:` URL; the
 *   socket's own error when the dev server cannot be reached.
 */
export function requestLoopback(url: URL, options: LoopbackRequestOptions): Promise<IncomingMessage> {
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (url.protocol !== 'http:' || !['127.0.0.1', '::1', 'localhost'].includes(hostname)) {
    return Promise.reject(new PluginHostError('INVALID_ARGUMENT', `${url.href} is not a dev server address on this machine`));
  }
  return new Promise((resolve, reject) => {
    const outgoing = request({
      hostname,
      port: url.port === '' ? 80 : Number(url.port),
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      headers: { accept: options.accept, host: url.host },
      ...(hostname === 'localhost' ? { lookup: pinnedLookup(LOCALHOST_ADDRESSES) } : {}),
      // No pooled sockets: each request is short, and a stream must not hold a shared one.
      agent: false,
      signal: options.signal,
    });
    outgoing.once('response', resolve);
    outgoing.once('error', reject);
    outgoing.end();
  });
}

/** A whole response of a dev server, read with a size limit. */
export interface LoopbackResponse {
  readonly status: number;
  /** The `Content-Type` header as sent, or `undefined`. */
  readonly contentType: string | undefined;
  readonly body: Buffer;
}

/** What a failed {@link fetchLoopback} says: the dev server did not answer, or not in time, or too much. */
export type LoopbackFailure = 'unreachable' | 'timeout' | 'too-large';

/** Thrown by {@link fetchLoopback}; `kind` says what went wrong, `message` says it for people. */
export class LoopbackFetchError extends Error {
  override readonly name = 'LoopbackFetchError';
  constructor(
    readonly kind: LoopbackFailure,
    message: string,
  ) {
    super(message);
  }
}

/** Options of {@link fetchLoopback}. */
export interface LoopbackFetchOptions {
  readonly accept: string;
  /** Time for the whole exchange, head and body. */
  readonly timeoutMs: number;
  /** Most body bytes kept; more is a `too-large` failure (the connection is dropped at once). */
  readonly maxBytes: number;
}

/**
 * `GET url` on a dev server, the whole body in memory (at most `maxBytes`), within `timeoutMs`.
 *
 * @throws LoopbackFetchError `unreachable`, `timeout` or `too-large`.
 */
export async function fetchLoopback(url: URL, options: LoopbackFetchOptions): Promise<LoopbackResponse> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs);
  try {
    const response = await requestLoopback(url, { accept: options.accept, signal: controller.signal });
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > options.maxBytes) {
      response.destroy();
      throw new LoopbackFetchError('too-large', `${url.href} is larger than ${options.maxBytes} bytes`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response) {
      const buffer = chunk as Buffer;
      size += buffer.length;
      if (size > options.maxBytes) {
        response.destroy();
        throw new LoopbackFetchError('too-large', `${url.href} is larger than ${options.maxBytes} bytes`);
      }
      chunks.push(buffer);
    }
    return { status: response.statusCode ?? 0, contentType: response.headers['content-type'], body: Buffer.concat(chunks) };
  } catch (error) {
    if (error instanceof LoopbackFetchError) throw error;
    if (timedOut) throw new LoopbackFetchError('timeout', `${url.origin} did not answer within ${options.timeoutMs / 1000} s`);
    const reason = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
    throw new LoopbackFetchError('unreachable', `${url.origin} is not reachable (${reason})`);
  } finally {
    clearTimeout(timer);
  }
}
