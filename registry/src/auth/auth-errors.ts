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
