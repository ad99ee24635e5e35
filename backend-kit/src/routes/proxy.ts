import Router from '@koa/router';
import { PluginHostError } from '@plughost/host-sdk/core';
import { jsonBody, requireJsonObject } from '../http/body.js';
import { callerGoneSignal } from '../http/caller-gone.js';
import { forwardEventStream } from '../services/network/event-stream-forwarding.js';
import type { GuardedFetcher } from '../services/network/guarded-fetcher.js';
import { parseProxyRequest } from '../services/network/proxy-request.js';
import { toProxyResponse } from '../services/network/proxy-response.js';
import { DEFAULT_BODY_LIMIT, readLimitedBody } from '../services/network/read-limited-body.js';

/** Options of {@link createProxyRouter} (tests). */
export interface ProxyRouterOptions {
  /** Largest buffered upstream body in bytes; default 10 MiB. */
  readonly bodyLimit?: number;
}

/**
 * `POST /plugins/proxy` with a ProxyRequest: fetches the URL through the SSRF guard
 * (`services/network`) and answers a ProxyResponse, or with `stream: true` a server-sent event
 * stream (format in `docs/backend.md`, "CORS proxy"). Upstream statuses are data, not errors;
 * refused destinations are 400 `PROXY_PRIVATE_ADDRESS`.
 */
export function createProxyRouter({ fetcher }: { readonly fetcher: GuardedFetcher }, options: ProxyRouterOptions = {}): Router {
  const router = new Router({ strict: true, sensitive: true });
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;

  // Request bodies of API calls (for example a chat prompt) can be large, but not unbounded.
  router.post('/plugins/proxy', jsonBody('4mb'), async (ctx) => {
    const request = parseProxyRequest(requireJsonObject(ctx));
    const signal = callerGoneSignal(ctx);
    const upstream = await fetcher.request(request.url, {
      method: request.method,
      headers: request.headers,
      ...(request.body !== undefined ? { body: request.body } : {}),
      timeoutMs: request.timeoutMs,
      signal,
    });

    if (!request.stream) {
      const bytes = await readLimitedBody(upstream, bodyLimit);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = toProxyResponse(upstream.status, upstream.headers, bytes);
      return;
    }

    if (upstream.status < 200 || upstream.status > 299) {
      // Nothing has been sent yet, so a failed upstream is an ordinary JSON error the bridge
      // turns into `onError`; the status is in the message.
      upstream.abort();
      throw new PluginHostError('PROXY_UPSTREAM_FAILED', `The upstream answered ${upstream.status} ${upstream.statusText}`.trim());
    }
    // From here on the answer is written by hand: Koa must not buffer or replace it.
    ctx.respond = false;
    ctx.res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      // Reverse proxies in front of a vendor's backend must not buffer the stream.
      'X-Accel-Buffering': 'no',
    });
    ctx.res.flushHeaders();
    await forwardEventStream(upstream, ctx.res);
  });
  return router;
}
