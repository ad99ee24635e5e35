import { PluginHostError } from '@plughost/host-sdk/core';
import { parseTargetUrl } from './check-destination.js';

/** A validated ProxyRequest (specification: ProxyRequest, Limits). */
export interface ProxyRequest {
  readonly url: URL;
  readonly method: ProxyMethod;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly timeoutMs: number;
  /** Answer with a server-sent event stream instead of a ProxyResponse. */
  readonly stream: boolean;
}

/** The methods the proxy forwards. CONNECT and TRACE are left out: neither has a use here and both are classic proxy abuse. */
export const PROXY_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
/** One of {@link PROXY_METHODS}. */
export type ProxyMethod = (typeof PROXY_METHODS)[number];

/** `timeoutMs` bounds and default (specification, Limits). */
export const PROXY_TIMEOUT = { default: 15_000, minimum: 1_000, maximum: 60_000 } as const;

const FIELDS = new Set(['url', 'method', 'headers', 'body', 'timeoutMs', 'stream']);

function invalid(field: string, message: string): PluginHostError {
  return new PluginHostError('INVALID_ARGUMENT', message, { field });
}

function parseMethod(value: unknown): ProxyMethod {
  if (value === undefined) return 'GET';
  const method = typeof value === 'string' ? value.toUpperCase() : '';
  const known = PROXY_METHODS.find((candidate) => candidate === method);
  if (!known) throw invalid('method', `method must be one of ${PROXY_METHODS.join(', ')}`);
  return known;
}

function parseHeaders(value: unknown): Record<string, string> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid('headers', 'headers must be an object of strings');
  const headers = Object.create(null) as Record<string, string>;
  for (const [name, header] of Object.entries(value)) {
    if (typeof header !== 'string') throw invalid('headers', `Header "${name}" must be a string`);
    headers[name] = header;
  }
  return headers;
}

function parseTimeout(value: unknown): number {
  if (value === undefined) return PROXY_TIMEOUT.default;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < PROXY_TIMEOUT.minimum || value > PROXY_TIMEOUT.maximum) {
    throw invalid('timeoutMs', `timeoutMs must be an integer from ${PROXY_TIMEOUT.minimum} to ${PROXY_TIMEOUT.maximum} (milliseconds)`);
  }
  return value;
}

/**
 * Validates a ProxyRequest body. Unknown fields are refused, so a typo (`timeout`) is an error
 * rather than a silently ignored option. Header names and values are checked again, with the
 * dropped headers, by the fetcher (`outgoingHeaders`).
 *
 * @throws PluginHostError `INVALID_ARGUMENT` naming the field.
 */
export function parseProxyRequest(input: Readonly<Record<string, unknown>>): ProxyRequest {
  const unknown = Object.keys(input).find((field) => !FIELDS.has(field));
  if (unknown !== undefined) throw invalid(unknown, `Unknown field "${unknown}"; a ProxyRequest has url, method, headers, body, timeoutMs, stream`);
  if (typeof input.url !== 'string') throw invalid('url', 'url is required and must be a string');
  const url = parseTargetUrl(input.url);
  const method = parseMethod(input.method);
  const body = input.body;
  if (body !== undefined && typeof body !== 'string') throw invalid('body', 'body must be a string');
  if (body !== undefined && (method === 'GET' || method === 'HEAD')) throw invalid('body', `A ${method} request cannot have a body`);
  const stream = input.stream;
  if (stream !== undefined && typeof stream !== 'boolean') throw invalid('stream', 'stream must be a boolean');
  return {
    url,
    method,
    headers: parseHeaders(input.headers),
    ...(body !== undefined ? { body } : {}),
    timeoutMs: parseTimeout(input.timeoutMs),
    stream: stream === true,
  };
}
