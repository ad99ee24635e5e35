import type { Context, Middleware } from 'koa';
import { ErrorCode, type PluginHostError, isPluginHostError } from '@plughost/host-sdk/core';
import { ERROR_STATUS } from '../http/error-status.js';
import type { BackendLogger } from '../http/logger.js';

/** The body of every error response: `{error: {code, message}}`, plus fields some codes add. */
export interface ErrorBody {
  error: { code: string; message: string; [extra: string]: unknown };
}

/** Koa and the body parsers raise HTTP errors with `status` and `expose` (for example malformed JSON). */
function httpErrorOf(error: unknown): { status: number; message: string } | null {
  const candidate = error as { status?: unknown; expose?: unknown; message?: unknown };
  if (typeof candidate?.status !== 'number' || candidate.status < 400 || candidate.status >= 500) return null;
  return { status: candidate.status, message: candidate.expose === true && typeof candidate.message === 'string' ? candidate.message : 'Bad request' };
}

// Details that help a client act (which entry, which limit, which folder to ask about). Anything
// else in `details` stays in the server, because it may name local paths. The store install's
// (`unsigned`, `source`, `slug`, `listed`, `package`, `sha256`, `fields`) and a revoked signer's
// `keyId` name store facts only.
const PUBLIC_DETAIL_KEYS = [
  'prefix',
  'entry',
  'problems',
  'check',
  'limit',
  'maximum',
  'dependency',
  'range',
  'field',
  'pluginId',
  'added',
  'unsigned',
  'source',
  'slug',
  'listed',
  'package',
  'sha256',
  'fields',
  'keyId',
] as const;

function publicDetails(details: Readonly<Record<string, unknown>> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!details) return out;
  for (const key of PUBLIC_DETAIL_KEYS) if (Object.hasOwn(details, key)) out[key] = details[key];
  return out;
}

/** The body the backend answers for `error` (its status is `ERROR_STATUS[error.code]`). */
export function pluginHostErrorBody(error: PluginHostError): ErrorBody {
  return { error: { ...publicDetails(error.details), code: error.code, message: error.message } };
}

// A 413 raised by Koa or a body parser is a JSON (or form) body over its route's limit: never a
// package, whose upload route raises its own `PACKAGE_TOO_LARGE` (decisions section 4).
const STATUS_CODES: Readonly<Record<number, ErrorCode>> = {
  401: 'UNAUTHORIZED',
  404: 'NOT_FOUND',
  413: 'BODY_TOO_LARGE',
};

/**
 * The answer of {@link errorHandler} for an error thrown while serving `ctx`, for chains that
 * catch it themselves: sets the status of the error's code and the `{error: {code, message}}` body.
 */
export type ErrorResponder = (ctx: Context, error: unknown) => void;

/** Builds the {@link ErrorResponder} of {@link errorHandler}, logging unexpected errors to `logger`. */
export function createErrorResponder(logger: BackendLogger): ErrorResponder {
  return function answerError(ctx, error) {
    let status: number;
    let body: ErrorBody;
    if (isPluginHostError(error)) {
      status = ERROR_STATUS[error.code] ?? 500;
      body = pluginHostErrorBody(error);
    } else {
      const http = httpErrorOf(error);
      if (http) {
        status = http.status;
        body = { error: { code: STATUS_CODES[http.status] ?? ErrorCode.INVALID_ARGUMENT, message: http.message } };
      } else {
        status = 500;
        body = { error: { code: ErrorCode.INTERNAL_ERROR, message: 'Internal error; the backend log has the details' } };
        logger.error(`${ctx.method} ${ctx.path} failed`, {
          error: error instanceof Error ? (error.stack ?? error.message) : String(error),
        });
      }
    }
    ctx.status = status;
    ctx.body = body;
  };
}

/**
 * Mounted first: turns every thrown error into `{error: {code, message}}` with the status of its
 * code. A few `PluginHostError` details that help the client act (the `prefix` of
 * `FS_AUTHORIZATION_REQUIRED`, the offending `entry`, the manifest `problems`) are added beside
 * `code`. Anything unexpected becomes
 * 500 `INTERNAL_ERROR` with a generic message and is logged, never sent.
 */
export function errorHandler(logger: BackendLogger): Middleware {
  const answerError = createErrorResponder(logger);
  return async function handleErrors(ctx, next) {
    try {
      await next();
    } catch (error) {
      answerError(ctx, error);
    }
  };
}
