import type { IncomingHttpHeaders } from 'node:http';
import { TextDecoder } from 'node:util';
import { HOP_BY_HOP_RESPONSE } from './outgoing-headers.js';

/** The JSON answer of a buffered proxy request (specification: ProxyResponse). */
export interface ProxyResponse {
  status: number;
  headers: Record<string, string>;
  /** The body as text for text types, else `null`. */
  body: string | null;
  /** The body as base64 for every other type (and when there is no content type), else `null`. */
  bodyBase64: string | null;
}

/** The media type of a `Content-Type` value, lower case, without parameters. */
export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** True for media types whose bytes are text: `text/*`, JSON, XML, JavaScript and their `+json`/`+xml` suffixes. */
export function isTextType(mediaType: string): boolean {
  return (
    mediaType.startsWith('text/') ||
    /^application\/(json|xml|javascript|ecmascript|x-javascript|x-www-form-urlencoded|graphql|x-ndjson|ndjson)$/.test(mediaType) ||
    /\+(json|xml)$/.test(mediaType)
  );
}

function charsetOf(contentType: string | undefined): string {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '');
  return match?.[1] ?? 'utf-8';
}

/** Decodes text in the response's charset, falling back to UTF-8 for a charset Node does not know. */
export function decodeText(bytes: Uint8Array, contentType: string | undefined): string {
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charsetOf(contentType));
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  return decoder.decode(bytes);
}

/** Upstream headers as a flat map: repeated headers joined with `, `, hop-by-hop headers left out. */
export function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP_RESPONSE.has(name)) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** Builds the ProxyResponse of an upstream answer whose body was read completely. */
export function toProxyResponse(status: number, headers: IncomingHttpHeaders, bytes: Uint8Array): ProxyResponse {
  const contentType = headers['content-type'];
  const text = isTextType(mediaTypeOf(contentType));
  return {
    status,
    headers: flattenHeaders(headers),
    body: text ? decodeText(bytes, contentType) : null,
    bodyBase64: text ? null : Buffer.from(bytes).toString('base64'),
  };
}
