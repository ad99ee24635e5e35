import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { PluginHostError, isPluginHostError } from '@plughost/host-sdk/core';
import { checkDestination, type CheckedDestination } from './check-destination.js';
import { ACCEPTED_ENCODINGS, decodeContent } from './content-decoding.js';
import { outgoingHeaders } from './outgoing-headers.js';
import { pinnedRequest } from './pinned-request.js';
import { systemResolver, type HostResolver } from './resolve-host.js';
import { createTrustedHostMatcher } from './trusted-hosts.js';
import { FetchAbortReason, toUpstreamError } from './upstream-errors.js';

/** Options of {@link createGuardedFetcher}. */
export interface GuardedFetcherOptions {
  /** `host` or `host:port` destinations treated as public (the vendor's `trustedHosts`). */
  readonly trustedHosts?: readonly string[];
  /** Resolves host names; default the system resolver. Tests inject one. */
  readonly resolve?: HostResolver;
  /** Most redirects followed per request (each one checked again); default 5. */
  readonly maxRedirects?: number;
}

/** One request through the guard. */
export interface GuardedRequestInit {
  /** Upper-case method; default `GET`. */
  readonly method?: string;
  /** Caller headers; validated, and `Host`, hop-by-hop and framing headers dropped. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Uint8Array;
  /** Deadline until the response head arrives (and afterwards, see `GuardedResponse.touch`); default 15000. */
  readonly timeoutMs?: number;
  /** The caller's own cancellation (for example its HTTP connection closing). */
  readonly signal?: AbortSignal;
  /**
   * Default true: compressed bodies are negotiated and decoded. False asks for the bytes exactly
   * as stored (`accept-encoding: identity`), which downloads need for hashes and byte ranges.
   */
  readonly decode?: boolean;
}

/** The answer of a guarded request: the head, and the body as a stream already decoded. */
export interface GuardedResponse {
  readonly status: number;
  readonly statusText: string;
  /** The URL that answered, after redirects. */
  readonly url: URL;
  /** Upstream headers; `content-encoding` and `content-length` are removed when the body was decoded. */
  readonly headers: IncomingHttpHeaders;
  readonly body: Readable;
  /** Aborted on the deadline, the caller's abort or {@link GuardedResponse.abort}; its reason tells which. */
  readonly signal: AbortSignal;
  /** Restarts the deadline (streams: an idle gap longer than `timeoutMs` ends the request). */
  touch(): void;
  /** Stops the deadline; call when the body has been read. */
  settle(): void;
  /** Ends the upstream request. */
  abort(): void;
  /** Maps an error raised while reading `body` to `PROXY_TIMEOUT` or `PROXY_UPSTREAM_FAILED`. */
  toError(error: unknown): PluginHostError;
}

/** A fetcher every backend fetch made for a plugin goes through (proxy, downloads, modpacks). */
export interface GuardedFetcher {
  request(url: string | URL, init?: GuardedRequestInit): Promise<GuardedResponse>;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
// Credentials are for the origin the caller named; a redirect elsewhere must not receive them.
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];
const BODY_HEADERS = ['content-type', 'content-encoding', 'content-language', 'content-location'];

function linkDeadline(timeoutMs: number, callerSignal: AbortSignal | undefined): { controller: AbortController; touch(): void; settle(): void } {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const touch = (): void => {
    clearTimeout(timer);
    if (!controller.signal.aborted) timer = setTimeout(() => controller.abort(new FetchAbortReason('timeout', timeoutMs)), timeoutMs);
  };
  const onCallerAbort = (): void => controller.abort(new FetchAbortReason('caller-gone'));
  if (callerSignal?.aborted) onCallerAbort();
  else callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  controller.signal.addEventListener(
    'abort',
    () => {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
    },
    { once: true },
  );
  touch();
  return {
    controller,
    touch,
    settle: () => {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
    },
  };
}

/**
 * Creates the SSRF-guarded fetcher. Each request (and each redirect hop) parses the URL (http and
 * https only), resolves the host once, refuses it when any address is private or reserved
 * (unless the destination is trusted), and connects only to the checked addresses, so a DNS
 * answer that changes between check and connection (rebinding) is never used. Redirects are
 * followed here, not by the HTTP client, so each hop is checked; credentials are not forwarded
 * across origins.
 *
 * @example
 * ```ts
 * const fetcher = createGuardedFetcher({ trustedHosts: context.options.trustedHosts });
 * const response = await fetcher.request('https://api.example.com/v1', { timeoutMs: 10_000 });
 * const bytes = await readLimitedBody(response, 10 * 1024 * 1024);
 * ```
 */
export function createGuardedFetcher(options: GuardedFetcherOptions = {}): GuardedFetcher {
  const resolve = options.resolve ?? systemResolver;
  const isTrusted = createTrustedHostMatcher(options.trustedHosts);
  const maxRedirects = options.maxRedirects ?? 5;

  return {
    async request(url, init = {}) {
      const deadline = linkDeadline(init.timeoutMs ?? 15_000, init.signal);
      const { signal } = deadline.controller;
      let method = (init.method ?? 'GET').toUpperCase();
      const decode = init.decode !== false;
      let headers: Record<string, string> = { ...outgoingHeaders(init.headers ?? {}), 'accept-encoding': decode ? ACCEPTED_ENCODINGS : 'identity' };
      let body = typeof init.body === 'string' ? Buffer.from(init.body, 'utf8') : init.body;
      let destination: CheckedDestination | undefined;
      let target: string | URL = url;
      try {
        for (let hop = 0; ; hop += 1) {
          const next = await checkDestination(target, { resolve, isTrusted }).catch((error: unknown) => {
            // A redirect to `file:` or a URL with credentials is the upstream's fault, not the caller's.
            if (hop > 0 && isPluginHostError(error, 'INVALID_ARGUMENT'))
              throw new PluginHostError('PROXY_UPSTREAM_FAILED', `The upstream redirected to an unsupported URL: ${error.message}`);
            throw error;
          });
          if (destination && next.url.origin !== destination.url.origin) for (const name of CREDENTIAL_HEADERS) delete headers[name];
          destination = next;
          signal.throwIfAborted();
          const response: IncomingMessage = await pinnedRequest(destination, { method, headers, signal, ...(body ? { body } : {}) });
          const status = response.statusCode ?? 0;
          const location = response.headers.location;
          if (!REDIRECTS.has(status) || location === undefined) return answer(response, destination.url);
          response.resume();
          response.destroy();
          if (hop >= maxRedirects) throw new PluginHostError('PROXY_UPSTREAM_FAILED', `More than ${maxRedirects} redirects`);
          try {
            target = new URL(location, destination.url);
          } catch {
            throw new PluginHostError('PROXY_UPSTREAM_FAILED', 'The upstream sent an invalid redirect');
          }
          // As browsers do: 303 always, and 301/302 after a POST, continue as a GET without a body.
          if ((status === 303 && method !== 'HEAD') || ((status === 301 || status === 302) && method === 'POST')) {
            method = 'GET';
            body = undefined;
            headers = Object.fromEntries(Object.entries(headers).filter(([name]) => !BODY_HEADERS.includes(name)));
          }
        }
      } catch (error) {
        deadline.settle();
        if (!signal.aborted) deadline.controller.abort();
        throw toUpstreamError(error, signal, destination?.hostname ?? String(url));
      }

      function answer(response: IncomingMessage, finalUrl: URL): GuardedResponse {
        const { stream, decoded } = decode ? decodeContent(response, response.headers['content-encoding']) : { stream: response, decoded: false };
        const responseHeaders: IncomingHttpHeaders = { ...response.headers };
        if (decoded) {
          delete responseHeaders['content-encoding'];
          delete responseHeaders['content-length'];
        }
        const host = finalUrl.hostname;
        return {
          status: response.statusCode ?? 0,
          statusText: response.statusMessage ?? '',
          url: finalUrl,
          headers: responseHeaders,
          body: stream,
          signal,
          touch: deadline.touch,
          settle: deadline.settle,
          abort: () => deadline.controller.abort(new FetchAbortReason('caller-gone')),
          toError: (error) => toUpstreamError(error, signal, host),
        };
      }
    },
  };
}
