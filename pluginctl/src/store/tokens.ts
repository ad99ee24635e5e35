import { StoreError, stringFieldOf } from './store-http.js';
import { SESSION_LIFETIME_MS, type StoredSession } from './sessions.js';

/** The token response of `POST /auth/token` and `POST /auth/refresh`. */
export interface TokenResponse {
  readonly accessToken: string;
  readonly refreshToken: string;
  /** Seconds the access token lives (15 minutes on the registry). */
  readonly expiresIn: number;
}

/** Reads an OAuth token response (`access_token`, `refresh_token`, `expires_in`). */
export function parseTokenResponse(body: unknown, what: string): TokenResponse {
  const accessToken = stringFieldOf(body, 'access_token', what);
  const refreshToken = stringFieldOf(body, 'refresh_token', what);
  const expiresIn = (body as Record<string, unknown>).expires_in;
  if (typeof expiresIn !== 'number' || !(expiresIn > 0)) {
    throw new StoreError('STORE_ERROR', `The store's answer to ${what} has no expires_in; check that --api names a plughost store.`, 200);
  }
  return { accessToken, refreshToken, expiresIn };
}

/**
 * The session to save after a token response. A login starts the 30 days; a refresh keeps the
 * login's dates, so rotating tokens never makes a session outlive them.
 */
export function sessionFrom(tokens: TokenResponse, now: Date, previous?: StoredSession): StoredSession {
  const loggedInAt = previous?.loggedInAt ?? now.toISOString();
  return {
    accessToken: tokens.accessToken,
    accessTokenExpiresAt: new Date(now.getTime() + tokens.expiresIn * 1000).toISOString(),
    refreshToken: tokens.refreshToken,
    loggedInAt,
    expiresAt: previous?.expiresAt ?? new Date(now.getTime() + SESSION_LIFETIME_MS).toISOString(),
  };
}
