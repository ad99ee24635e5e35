import type { SchemaObject } from '../openapi-types.js';
import type { RouteDescription } from '../route-description.js';
import { PROXY_METHODS, PROXY_TIMEOUT } from '../../services/network/proxy-request.js';

const PROXY_REQUEST: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['url'],
  properties: {
    url: { type: 'string', format: 'uri', description: 'http or https only; no credentials in the URL.' },
    method: { type: 'string', enum: [...PROXY_METHODS], default: 'GET', description: 'Case-insensitive. GET and HEAD take no body.' },
    headers: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description: 'Values with CR, LF or NUL are refused. `Host`, hop-by-hop headers, `Content-Length`, `Expect` and `Accept-Encoding` are dropped.',
    },
    body: { type: 'string', description: 'Request body, sent as UTF-8.' },
    timeoutMs: {
      type: 'integer',
      minimum: PROXY_TIMEOUT.minimum,
      maximum: PROXY_TIMEOUT.maximum,
      default: PROXY_TIMEOUT.default,
      description: 'Deadline for the whole exchange; with `stream: true`, for the response head and for each idle gap between chunks.',
    },
    stream: { type: 'boolean', default: false, description: 'Answer with a server-sent event stream.' },
  },
};

const PROXY_RESPONSE: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['status', 'headers', 'body', 'bodyBase64'],
  properties: {
    status: { type: 'integer', description: 'The upstream status; non-2xx statuses are data, not errors.' },
    headers: { type: 'object', additionalProperties: { type: 'string' }, description: 'Upstream headers, lower-case names, repeated ones joined with `, `.' },
    body: { type: ['string', 'null'], description: 'The body as text for text/*, JSON, XML, JavaScript and +json/+xml types (charset respected).' },
    bodyBase64: { type: ['string', 'null'], description: 'The body in base64 for every other type.' },
  },
};

/** `routes/proxy.ts`: the CORS proxy with the SSRF guard. */
export const proxyRoutes: readonly RouteDescription[] = [
  {
    method: 'post',
    path: '/api/plugins/proxy',
    operationId: 'proxyFetch',
    tag: 'network',
    summary: 'Fetch a public URL for a plugin (CORS proxy)',
    description:
      'Every address the host resolves to must be public: loopback, private, link-local, CGNAT, documentation, multicast, reserved and the IPv6 special blocks (IPv4-mapped, NAT64 and 6to4 judged by their IPv4) give 400 `PROXY_PRIVATE_ADDRESS`; 198.18.0.0/15 is allowed. The connection goes to the checked address; redirects (at most 5) are checked again. Buffered bodies are limited to 10 MiB (502 `PROXY_BODY_TOO_LARGE`).\n\n' +
      'With `stream: true` the answer is `text/event-stream`: an upstream event stream is passed through byte for byte; any other body is framed as one event per chunk, each line a `data:` line. A failure after the stream started ends it with `event: error` and `data: {"code","message"}`; a failure before it started (including an upstream non-2xx status) is an ordinary JSON error.',
    body: { json: PROXY_REQUEST },
    responses: {
      200: {
        description: 'The upstream answer (ProxyResponse), or with `stream: true` the event stream.',
        content: {
          'application/json': { schema: PROXY_RESPONSE },
          'text/event-stream': { schema: { type: 'string' } },
        },
      },
    },
    errors: ['INVALID_ARGUMENT', 'PROXY_PRIVATE_ADDRESS', 'PROXY_UPSTREAM_FAILED', 'PROXY_TIMEOUT', 'PROXY_BODY_TOO_LARGE'],
  },
];
