import type { Context, Middleware } from 'koa';
import { jsonOrFormBody } from '@plughost/backend-kit';
import { isOAuthError } from './auth-errors.js';
import { isRegistryError } from '../errors/registry-error.js';

/** A request's body fields: a prototype-less copy, so a `__proto__` field is inert data. */
export type BodyFields = Readonly<Record<string, unknown>>;

/**
 * How a route answers its errors: `registry` as `{error: {code, message}}`, `oauth` (the OAuth
 * endpoints) as `{error, error_description}` (RFC 6749 section 5.2).
 */
export type ErrorShape = 'registry' | 'oauth';

// The auth bodies are a few short strings; a small limit keeps floods cheap to refuse. Both JSON
// and form encoding are accepted, because OAuth clients send forms (RFC 6749 section 4.1.3).
const parseBody = jsonOrFormBody('16kb');

function fieldsOf(ctx: Context): BodyFields {
  const body: unknown = ctx.request.body;
  const fields = Object.create(null) as Record<string, unknown>;
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    for (const [key, value] of Object.entries(body)) fields[key] = value;
  }
  return fields;
}

/** A string field, `undefined` when absent; any other type (a number, a repeated form field) is `null`. */
export function stringField(fields: BodyFields, name: string): string | undefined | null {
  const value = fields[name];
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : null;
}

/** Answers an error of the auth module in `shape`; other errors are rethrown for the app's error handler. */
function answerError(ctx: Context, error: unknown, shape: ErrorShape): void {
  if (isOAuthError(error)) {
    for (const [name, value] of Object.entries(error.headers)) ctx.set(name, value);
    ctx.set('Cache-Control', 'no-store');
    ctx.status = error.status;
    ctx.body = { error: error.code, error_description: error.message };
    return;
  }
  if (isRegistryError(error)) {
    for (const [name, value] of Object.entries(error.headers)) ctx.set(name, value);
    ctx.status = error.status;
    ctx.body = { error: { code: error.code, message: error.message } };
    return;
  }
  // A body the parser refused (malformed JSON, too large, bad encoding) is the client's mistake.
  const http = error as { status?: unknown; expose?: unknown; message?: unknown } | null;
  if (typeof http?.status === 'number' && http.status >= 400 && http.status < 500) {
    const message = http.expose === true && typeof http.message === 'string' ? http.message : 'The request body could not be read';
    const code = http.status === 413 ? 'payload_too_large' : http.status === 415 ? 'unsupported_media_type' : 'invalid_argument';
    ctx.status = http.status;
    ctx.body = shape === 'oauth' ? { error: 'invalid_request', error_description: message } : { error: { code, message } };
    return;
  }
  throw error;
}

/**
 * Wraps an auth route: parses the body (JSON or form) into fields and answers the module's own
 * errors itself, so the auth routes keep their documented error shapes whatever error middleware
 * the application mounts. Unexpected errors go on to that middleware.
 */
export function authRoute(shape: ErrorShape, handler: (ctx: Context, fields: BodyFields) => Promise<void>): Middleware {
  return async function handleAuthRoute(ctx) {
    try {
      // An application that parsed bodies already (a global body parser) has consumed the stream.
      if (ctx.request.body === undefined) await parseBody(ctx, async () => {});
      await handler(ctx, fieldsOf(ctx));
    } catch (error) {
      answerError(ctx, error, shape);
    }
  };
}
