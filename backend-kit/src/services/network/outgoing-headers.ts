import { PluginHostError } from '@plughost/host-sdk/core';

// RFC 9110 token characters: anything else in a name could split or smuggle a header.
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// CR, LF and NUL would let a value start a new header or request (response splitting).
const FORBIDDEN_VALUE = /[\r\n\0]/;

/**
 * Headers a caller may not set: `Host` (the connection's own name is always sent, so a caller
 * cannot reach another virtual host than the one that was checked), hop-by-hop headers (they
 * describe the caller's connection, not ours) and the framing headers the client computes.
 */
const DROPPED = new Set([
  'host',
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'content-length',
  'expect',
  // The fetcher negotiates encodings it can decode itself.
  'accept-encoding',
]);

/**
 * Validates caller-supplied request headers and returns the ones to send, with lower-case names.
 *
 * @throws PluginHostError `INVALID_ARGUMENT` for a malformed name or a value with CR, LF or NUL.
 */
export function outgoingHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(headers)) {
    if (!HEADER_NAME.test(name)) throw new PluginHostError('INVALID_ARGUMENT', `Header name "${name}" is not a valid HTTP token`, { field: 'headers' });
    if (FORBIDDEN_VALUE.test(value)) throw new PluginHostError('INVALID_ARGUMENT', `Header "${name}" contains CR, LF or NUL`, { field: 'headers' });
    const lower = name.toLowerCase();
    if (DROPPED.has(lower)) continue;
    out[lower] = value;
  }
  return out;
}

/** Hop-by-hop response headers that describe the upstream connection, not the resource. */
export const HOP_BY_HOP_RESPONSE = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);
