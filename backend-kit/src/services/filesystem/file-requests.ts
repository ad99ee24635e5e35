import { PluginHostError } from '@plughost/host-sdk/core';
import { FILESYSTEM_LIMITS } from './filesystem-limits.js';

/** `/read`: what to read and how to answer. */
export interface ReadRequest {
  readonly path: unknown;
  readonly encoding: 'text' | 'base64';
  readonly start: number;
  readonly length: number | undefined;
}

/** `/write`: the bytes to store (text is stored as UTF-8). */
export interface WriteRequest {
  readonly path: unknown;
  readonly data: Uint8Array;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Refuses fields outside `allowed`, so a typo (`contents`) is an error, not a silent default. */
export function refuseUnknownFields(body: Readonly<Record<string, unknown>>, allowed: readonly string[]): void {
  const unknown = Object.keys(body).find((field) => !allowed.includes(field));
  if (unknown !== undefined) throw new PluginHostError('INVALID_ARGUMENT', `Unknown field "${unknown}"`, { field: unknown });
}

function optionalCount(body: Readonly<Record<string, unknown>>, field: string): number | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new PluginHostError('INVALID_ARGUMENT', `"${field}" must be a whole number, 0 or more`, { field });
  }
  return value;
}

/** Checks `{path, encoding: "text"|"base64", start?, length?}` (`encoding` defaults to text). */
export function parseReadRequest(body: Readonly<Record<string, unknown>>): ReadRequest {
  refuseUnknownFields(body, ['path', 'encoding', 'start', 'length']);
  const encoding = body.encoding ?? 'text';
  if (encoding !== 'text' && encoding !== 'base64')
    throw new PluginHostError('INVALID_ARGUMENT', '"encoding" must be "text" or "base64"', { field: 'encoding' });
  return { path: body.path, encoding, start: optionalCount(body, 'start') ?? 0, length: optionalCount(body, 'length') };
}

/** Checks `{path, content}` or `{path, contentBase64}` (exactly one of the two). */
export function parseWriteRequest(body: Readonly<Record<string, unknown>>): WriteRequest {
  refuseUnknownFields(body, ['path', 'content', 'contentBase64']);
  const text = body.content;
  const base64 = body.contentBase64;
  if ((text === undefined) === (base64 === undefined)) throw new PluginHostError('INVALID_ARGUMENT', 'Send exactly one of "content" and "contentBase64"');
  let data: Uint8Array;
  if (text !== undefined) {
    if (typeof text !== 'string') throw new PluginHostError('INVALID_ARGUMENT', '"content" must be a string', { field: 'content' });
    data = Buffer.from(text, 'utf8');
  } else {
    if (typeof base64 !== 'string' || !BASE64.test(base64)) {
      throw new PluginHostError('INVALID_ARGUMENT', '"contentBase64" must be standard padded base64', { field: 'contentBase64' });
    }
    data = Buffer.from(base64, 'base64');
  }
  if (data.length > FILESYSTEM_LIMITS.maximumTransferBytes) {
    throw new PluginHostError('INVALID_ARGUMENT', `Write at most ${FILESYSTEM_LIMITS.maximumTransferBytes} bytes at a time`, {
      limit: FILESYSTEM_LIMITS.maximumTransferBytes,
    });
  }
  return { path: body.path, data };
}
