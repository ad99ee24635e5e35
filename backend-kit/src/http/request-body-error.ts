/**
 * A request body that could not be read: a client error in the shape Koa's `ctx.throw` gives
 * (`status`, `expose`), because the body parsers are shared by the local backend and the registry
 * and each error handler answers that shape in its own vocabulary (413 is `BODY_TOO_LARGE` in the
 * backend, `payload_too_large` in the registry).
 */
export class RequestBodyError extends Error {
  override readonly name = 'RequestBodyError';
  /** The message is written for the client and safe to send. */
  readonly expose = true;
  readonly status: 400 | 413 | 415;

  constructor(status: 400 | 413 | 415, message: string) {
    super(message);
    this.status = status;
  }
}

/** 413: the body is larger than its route accepts. */
export function bodyTooLarge(limit: number): RequestBodyError {
  return new RequestBodyError(413, `The request body exceeds the limit of ${limit} bytes for this route`);
}
