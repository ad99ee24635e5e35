import type { RegistryContext } from '../registry-context.js';
import { ACCESS_TOKEN_LIFETIME_SECONDS, AccessTokenSigner } from './access-token.js';
import type { AccountRecord, AuthRepository } from './auth-repository.js';
import { loadSecret } from './auth-secrets.js';
import { newOpaqueToken, tokenDigest } from './opaque-token.js';

/** A login session (refresh-token family) lasts 30 days from login (specification, Limits). */
export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

/** The OAuth token response (RFC 6749 section 5.1) of login, device-code exchange and refresh. */
export interface TokenResponse {
  readonly access_token: string;
  readonly token_type: 'Bearer';
  /** Seconds: always 900. */
  readonly expires_in: number;
  readonly refresh_token: string;
}

/** The outcome of {@link SessionTokens.refresh}. */
export type RefreshResult =
  | { readonly kind: 'rotated'; readonly tokens: TokenResponse }
  | { readonly kind: 'refused'; readonly reason: 'unknown' | 'revoked' | 'expired' | 'reused' };

/**
 * Issues, rotates and checks the tokens of login sessions. Access tokens are signed and
 * self-contained (see {@link AccessTokenSigner}); refresh tokens are random and stored as their
 * SHA-256. Every access token names its session, and {@link SessionTokens.verifyAccessToken}
 * refuses it once that session is revoked, so logout and reuse detection take effect at once
 * instead of after up to 15 minutes.
 */
export class SessionTokens {
  private signer: Promise<AccessTokenSigner> | undefined;

  constructor(
    private readonly context: RegistryContext,
    private readonly repository: AuthRepository,
  ) {}

  /** Starts a 30-day session for `accountId` and answers its first token pair. */
  async issue(accountId: string): Promise<TokenResponse> {
    const now = this.context.now();
    const refreshToken = newOpaqueToken();
    const session = await this.repository.createSession({
      accountId,
      refreshTokenHash: tokenDigest(refreshToken),
      createdAt: now,
      expiresAt: new Date(now.getTime() + SESSION_LIFETIME_MS),
    });
    return this.tokenResponse(accountId, session.id, refreshToken);
  }

  /**
   * Exchanges a refresh token for a new pair (rotation). A spent token presented again revokes
   * its whole family, so the newer refresh token and the family's access tokens stop working too.
   */
  async refresh(refreshToken: string): Promise<RefreshResult> {
    const next = newOpaqueToken();
    const outcome = await this.repository.rotateRefreshToken(tokenDigest(refreshToken), tokenDigest(next), this.context.now());
    if (outcome.kind !== 'rotated') {
      if (outcome.kind === 'reused')
        this.context.logger.warn('A spent refresh token was presented again; its session is revoked', { sessionId: outcome.sessionId });
      return { kind: 'refused', reason: outcome.kind };
    }
    return { kind: 'rotated', tokens: await this.tokenResponse(outcome.session.accountId, outcome.session.id, next) };
  }

  /** Revokes the session of a refresh token (spent or current); unknown tokens are ignored. */
  async revokeByRefreshToken(refreshToken: string): Promise<void> {
    const session = await this.repository.findSessionByRefreshToken(tokenDigest(refreshToken));
    if (session) await this.repository.revokeSession(session.id, this.context.now());
  }

  /** Revokes a session by id (logout with an access token). */
  async revokeSession(sessionId: string): Promise<void> {
    await this.repository.revokeSession(sessionId, this.context.now());
  }

  /**
   * The account and session of a valid access token: well signed, not expired, its session
   * neither revoked nor expired, its account still there. `null` otherwise.
   */
  async verifyAccessToken(token: string): Promise<{ account: AccountRecord; sessionId: string } | null> {
    const now = this.context.now();
    const claims = (await this.accessSigner()).verify(token, now);
    if (!claims) return null;
    const session = await this.repository.findSession(claims.sessionId);
    if (!session || session.revokedAt !== null || session.expiresAt.getTime() <= now.getTime() || session.accountId !== claims.accountId) return null;
    const account = await this.repository.findAccountById(claims.accountId);
    return account ? { account, sessionId: session.id } : null;
  }

  private async tokenResponse(accountId: string, sessionId: string, refreshToken: string): Promise<TokenResponse> {
    const { token } = (await this.accessSigner()).sign(accountId, sessionId, this.context.now());
    return { access_token: token, token_type: 'Bearer', expires_in: ACCESS_TOKEN_LIFETIME_SECONDS, refresh_token: refreshToken };
  }

  private accessSigner(): Promise<AccessTokenSigner> {
    this.signer ??= loadSecret(this.repository, 'access-token-hmac').then(
      (secret) => new AccessTokenSigner(secret),
      (error: unknown) => {
        this.signer = undefined; // try again on the next request
        throw error;
      },
    );
    return this.signer;
  }
}
