import type { Middleware } from 'koa';
import type { BackendLogger } from '@plughost/backend-kit';
import type { RegistryErrorBody } from '@plughost/host-sdk/core';
import { RegistryError, isRegistryError, type RegistryErrorCode } from '../errors/registry-error.js';

/** The body of every registry error response (decisions section 3), as the protocol declares it. */
export type { RegistryErrorBody };

// Codes for HTTP errors raised by Koa or the body parsers (malformed JSON, a body too large), which carry
// a status but none of our codes.
const CODE_OF_STATUS: Readonly<Record<number, RegistryErrorCode>> = {
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};

const LOWER_SNAKE = /^[a-z][a-z0-9_]*$/;

interface ExposedError {
  status: number;
  code: string;
  message: string;
  headers: Readonly<Record<string, string>>;
}

/**
 * A 4xx error meant for the client: a {@link RegistryError}, another module's error of the same
 * shape (`status`, `expose`, a lower_snake `code`, optional `headers`, like the auth module's), or
 * an `http-errors` error from Koa or the body parsers (code taken from its status).
 */
function exposedErrorOf(error: unknown): ExposedError | null {
  if (isRegistryError(error)) return { status: error.status, code: error.code, message: error.message, headers: error.headers };
  const candidate = error as { status?: unknown; expose?: unknown; message?: unknown; code?: unknown; headers?: unknown } | null;
  if (typeof candidate !== 'object' || candidate === null) return null;
  const { status } = candidate;
  if (typeof status !== 'number' || status < 400 || status >= 500) return null;
  const message = candidate.expose === true && typeof candidate.message === 'string' ? candidate.message : 'Bad request';
  const code = typeof candidate.code === 'string' && LOWER_SNAKE.test(candidate.code) ? candidate.code : (CODE_OF_STATUS[status] ?? 'invalid_argument');
  const headers: Record<string, string> = {};
  if (typeof candidate.headers === 'object' && candidate.headers !== null) {
    for (const [name, value] of Object.entries(candidate.headers)) if (typeof value === 'string') headers[name] = value;
  }
  return { status, code, message, headers };
}

/**
 * Mounted first in the registry's chain: turns every thrown error into `{error: {code, message}}`
 * with a meaningful status and `Cache-Control: no-store` (an error must never be cached in place of
 * a plugin that appears a moment later). Anything unexpected becomes 500 `internal_error` with a
 * generic message and is logged, never sent: an exception text may name server paths.
 */
export function registryErrorHandler(logger: BackendLogger): Middleware {
  return async function handleRegistryErrors(ctx, next) {
    try {
      await next();
    } catch (error) {
      const exposed = exposedErrorOf(error);
      let body: RegistryErrorBody;
      if (exposed) {
        ctx.status = exposed.status;
        for (const [name, value] of Object.entries(exposed.headers)) ctx.set(name, value);
        body = { error: { code: exposed.code, message: exposed.message } };
      } else {
        ctx.status = 500;
        body = { error: { code: 'internal_error', message: 'Internal error; the registry log has the details' } };
        logger.error(`${ctx.method} ${ctx.path} failed`, { error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
      }
      ctx.remove('ETag');
      ctx.set('Cache-Control', 'no-store');
      ctx.body = body;
    }
  };
}

/**
 * Gives requests no route answered an error body: 404 `not_found` for an unknown path, 405
 * `method_not_allowed` (with the router's `Allow` header) for a known path and another method.
 */
export const registryUnansweredAsErrors: Middleware = async function registryUnansweredAsErrors(ctx, next) {
  await next();
  if (ctx.body !== undefined && ctx.body !== null) return;
  if (ctx.status === 404) throw new RegistryError('not_found', `No route ${ctx.method} ${ctx.path}`);
  if (ctx.status === 405 || ctx.status === 501) {
    const allow = ctx.response.get('Allow');
    throw new RegistryError('method_not_allowed', `${ctx.method} is not allowed on ${ctx.path}${allow ? `; allowed: ${allow}` : ''}`);
  }
};
