import type { Context, Middleware } from 'koa';
import { koaBody } from 'koa-body';
import { PluginHostError } from '@plughost/host-sdk/core';

/** Parses JSON request bodies (strict JSON objects and arrays, at most 1 MiB by default). */
export function jsonBody(limit = '1mb'): Middleware {
  return koaBody({ json: true, jsonStrict: true, jsonLimit: limit, urlencoded: false, text: false, multipart: false });
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
