import type { Context, Middleware } from 'koa';
import { PluginHostError } from '@plughost/host-sdk/core';
import { byteSize } from './byte-size.js';
import { readBodyText } from './read-body.js';
import { RequestBodyError } from './request-body-error.js';

declare module 'koa' {
  interface Request {
    /**
     * The parsed request body: set by `jsonBody`, `jsonOrFormBody` and (the text fields) by
     * `receiveFileUpload`; `undefined` when no parser ran or the body was of another type. Check
     * its shape before use (`requireJsonObject` does).
     */
    body?: unknown;
  }
}

// Only these methods carry a body worth parsing (as Koa body parsers usually do).
const PARSED_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH']);

// Strict mode: the JSON text must be an object or an array (RFC 8259 whitespace before it).
const OBJECT_OR_ARRAY = /^[ \t\n\r]*[[{]/;

/** JSON.parse reviver that refuses a `__proto__` key at any depth (it sees keys after unescaping). */
function refuseProtoKey(key: string, value: unknown): unknown {
  if (key === '__proto__') throw new RequestBodyError(400, 'The JSON request body must not contain a "__proto__" key');
  return value;
}

/**
 * Parses a strict JSON body: an object or an array, an empty body being `{}`. A `__proto__` key is
 * refused wherever it is, so no later spread or merge of the data can reach a prototype; the
 * slower reviver runs only when the text could spell that key (literally or with `\u` escapes).
 */
function parseStrictJson(text: string): unknown {
  if (text === '') return {};
  if (!OBJECT_OR_ARRAY.test(text)) throw new RequestBodyError(400, 'The JSON request body must be an object or an array');
  try {
    return text.includes('__proto__') || text.includes('\\u') ? JSON.parse(text, refuseProtoKey) : JSON.parse(text);
  } catch (error) {
    if (error instanceof RequestBodyError) throw error;
    throw new RequestBodyError(400, `The request body is not valid JSON: ${(error as Error).message}`);
  }
}

/** Parses an `application/x-www-form-urlencoded` body: a prototype-less record, a repeated field an array. */
function parseForm(text: string): Record<string, string | string[]> {
  const fields = Object.create(null) as Record<string, string | string[]>;
  for (const [name, value] of new URLSearchParams(text)) {
    const seen = fields[name];
    if (seen === undefined) fields[name] = value;
    else if (Array.isArray(seen)) seen.push(value);
    else fields[name] = [seen, value];
  }
  return fields;
}

function bodyParser(limit: number | string, forms: boolean): Middleware {
  const maximum = byteSize(limit);
  return async function parseBody(ctx, next) {
    if (PARSED_METHODS.has(ctx.method)) {
      if (ctx.is('application/json')) ctx.request.body = parseStrictJson(await readBodyText(ctx, maximum));
      else if (forms && ctx.is('application/x-www-form-urlencoded')) ctx.request.body = parseForm(await readBodyText(ctx, maximum));
    }
    await next();
  };
}

/**
 * Parses `application/json` bodies of POST, PUT and PATCH requests into `ctx.request.body`: strict
 * JSON (an object or an array; an empty body is `{}`), UTF-8, at most `limit` (bytes, or text such
 * as `'64kb'`; 1 MiB by default). A body of another type is left unread and `ctx.request.body`
 * `undefined`. Errors carry `status` and `expose` like Koa's own: 413 over the limit (refused from
 * its `Content-Length` before reading, or while it streams), 400 for malformed JSON, bytes that are
 * not UTF-8, a `__proto__` key or a client that went away, 415 for a compressed body or another
 * charset.
 *
 * @example
 * router.post('/plugins/install', jsonBody('16kb'), (ctx) => {
 *   const body = requireJsonObject(ctx);
 * });
 */
export function jsonBody(limit: number | string = '1mb'): Middleware {
  return bodyParser(limit, false);
}

/**
 * Like {@link jsonBody}, and also parses `application/x-www-form-urlencoded` bodies (as OAuth
 * clients send them) into a prototype-less record of strings, a repeated field becoming an array.
 */
export function jsonOrFormBody(limit: number | string = '16kb'): Middleware {
  return bodyParser(limit, true);
}

/**
 * The parsed JSON body as a plain object, or 400 `INVALID_ARGUMENT`. Keys are copied onto a
 * prototype-less object so a `__proto__` key is inert data.
 */
export function requireJsonObject(ctx: Context): Record<string, unknown> {
  const body: unknown = ctx.request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !ctx.is('application/json')) {
    throw new PluginHostError('INVALID_ARGUMENT', 'The request body must be a JSON object (Content-Type: application/json)');
  }
  const copy = Object.create(null) as Record<string, unknown>;
  for (const [key, value] of Object.entries(body)) copy[key] = value;
  return copy;
}
