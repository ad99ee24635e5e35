/**
 * The registry-shaped errors of the auth module (`{error: {code, message}}`, lower_snake codes) and
 * the HTTP status of each. Typed as a complete record, so a new code does not compile until it
 * has a status.
 */
export const AUTH_ERROR_STATUS = {
  /** A required body field is missing or not a string, or the body cannot be read (the registry's general code). */
  invalid_argument: 400,
  /** The body is larger than the auth routes accept (16 KiB). */
  payload_too_large: 413,
  /** The body's media type cannot be read. */
  unsupported_media_type: 415,
  /** Registration: the username breaks the username rules. */
  invalid_username: 400,
  /** Registration: the password breaks the password rules. */
  invalid_password: 400,
  /** Registration: an account already has this username (compared case-insensitively). */
  username_taken: 409,
  /** Login: unknown username or wrong password (one answer for both). */
  invalid_credentials: 401,
  /** Too many attempts; `Retry-After` says when to try again. */
  rate_limited: 429,
  /** Missing, malformed, expired or revoked bearer token or API key. */
  unauthorized: 401,
} as const satisfies Readonly<Record<string, number>>;

/** A registry error code of the auth module. */
export type AuthErrorCode = keyof typeof AUTH_ERROR_STATUS;

/**
 * A registry error raised by the auth module. It has the fields of a Koa `http-errors` error
 * (`status`, `expose`, `headers`), so an error middleware that knows nothing of this class can
 * still answer its status; the auth routes themselves answer it as `{error: {code, message}}`.
 */
export class AuthError extends Error {
  override readonly name = 'AuthError';
  readonly status: number;
  readonly expose = true;
  /** Response headers the answer needs (`WWW-Authenticate`, `Retry-After`). */
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    readonly code: AuthErrorCode,
    message: string,
    headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.status = AUTH_ERROR_STATUS[code];
    this.headers = headers;
  }
}

/** True for an {@link AuthError}, checked by name and code rather than `instanceof`. */
export function isAuthError(error: unknown): error is AuthError {
  const candidate = error as { name?: unknown; code?: unknown } | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    candidate.name === 'AuthError' &&
    typeof candidate.code === 'string' &&
    Object.hasOwn(AUTH_ERROR_STATUS, candidate.code)
  );
}

/**
 * The OAuth error codes the OAuth endpoints (`/auth/device/code`, `/auth/token`, `/auth/refresh`)
 * answer (RFC 6749 section 5.2, RFC 8628 section 3.5), plus `rate_limited`.
 */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_grant'
  | 'unsupported_grant_type'
  | 'authorization_pending'
  | 'slow_down'
  | 'expired_token'
  | 'access_denied'
  | 'rate_limited';

/**
 * An error of an OAuth endpoint, answered in the OAuth shape `{error, error_description}` that
 * device-flow clients expect (the one exception to the registry's `{error: {code, message}}`).
 */
export class OAuthError extends Error {
  override readonly name = 'OAuthError';
  readonly expose = true;

  constructor(
    readonly code: OAuthErrorCode,
    message: string,
    /** 400 unless the endpoint documents otherwise (`/auth/refresh` answers 401 `invalid_grant`). */
    readonly status = 400,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

/** True for an {@link OAuthError}, checked by name rather than `instanceof`. */
export function isOAuthError(error: unknown): error is OAuthError {
  const candidate = error as { name?: unknown; code?: unknown } | null;
  return typeof candidate === 'object' && candidate !== null && candidate.name === 'OAuthError' && typeof candidate.code === 'string';
}
