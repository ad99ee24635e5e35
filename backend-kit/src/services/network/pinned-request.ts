import { request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { CheckedDestination } from './check-destination.js';
import { pinnedLookup } from './pinned-lookup.js';

/** One HTTP exchange to a checked destination. */
export interface PinnedRequestInit {
  readonly method: string;
  readonly headers: OutgoingHttpHeaders;
  readonly body?: Uint8Array;
  readonly signal: AbortSignal;
}

/**
 * Sends one request to a destination that passed the guard and resolves with the response head
 * (the body is still a stream). The socket connects only to the checked addresses; `Host` and TLS
 * SNI carry the original name, so virtual hosts and certificates work as usual. No agent: a
 * pooled socket must never be reused for another destination's check.
 */
export function pinnedRequest(destination: CheckedDestination, init: PinnedRequestInit): Promise<IncomingMessage> {
  const { url, hostname } = destination;
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing = request({
      protocol: url.protocol,
      hostname,
      port: url.port === '' ? undefined : Number(url.port),
      path: `${url.pathname}${url.search}`,
      method: init.method,
      headers: { ...init.headers, host: url.host },
      lookup: pinnedLookup(destination.addresses),
      agent: false,
      // SNI must be a name, never an IP literal (RFC 6066).
      ...(url.protocol === 'https:' && isIP(hostname) === 0 ? { servername: hostname } : {}),
      signal: init.signal,
    });
    outgoing.once('response', resolve);
    outgoing.once('error', reject);
    outgoing.end(init.body);
  });
}
