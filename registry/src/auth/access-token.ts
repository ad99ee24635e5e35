import { createHmac, timingSafeEqual } from 'node:crypto';

/** Access tokens live 15 minutes (specification, Limits). */
export const ACCESS_TOKEN_LIFETIME_SECONDS = 900;

/** What an access token says. Times are Unix seconds. */
export interface AccessTokenClaims {
  /** The account id. */
  readonly accountId: string;
  /** The session (refresh-token family) it was issued in; revoking the session refuses it too. */
  readonly sessionId: string;
  readonly issuedAt: number;
  readonly expiresAt: number;
}

const VERSION = 'v1';
const MAXIMUM_TOKEN_LENGTH = 1024;
const ID = /^[A-Za-z0-9-]{1,64}$/;

/**
 * Issues and checks access tokens: `v1.<payload>.<signature>`, where the payload is base64url JSON
 * `{sub, sid, iat, exp}` and the signature is base64url HMAC-SHA256 of `v1.<payload>` under a
 * secret the registry generates once and keeps in its database. A token is checked without a
 * database read for the signature and expiry; the caller still checks that its session was not
 * revoked (see `SessionTokens.verifyAccessToken`).
 */
export class AccessTokenSigner {
  constructor(private readonly secret: Buffer) {}

  /** A signed token for `accountId` in `sessionId`, valid 15 minutes from `now`. */
  sign(accountId: string, sessionId: string, now: Date): { token: string; claims: AccessTokenClaims } {
    const issuedAt = Math.floor(now.getTime() / 1000);
    const claims: AccessTokenClaims = { accountId, sessionId, issuedAt, expiresAt: issuedAt + ACCESS_TOKEN_LIFETIME_SECONDS };
    const payload = Buffer.from(JSON.stringify({ sub: accountId, sid: sessionId, iat: issuedAt, exp: claims.expiresAt })).toString('base64url');
    return { token: `${VERSION}.${payload}.${this.signature(payload).toString('base64url')}`, claims };
  }

  /** The claims of a well-signed token that has not expired at `now`; `null` otherwise. */
  verify(token: string, now: Date): AccessTokenClaims | null {
    if (token.length > MAXIMUM_TOKEN_LENGTH) return null;
    const parts = token.split('.');
    if (parts.length !== 3 || parts[0] !== VERSION) return null;
    const [, payload = '', signature = ''] = parts;
    const given = Buffer.from(signature, 'base64url');
    const expected = this.signature(payload);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const claims = parseClaims(payload);
    if (!claims || claims.expiresAt <= now.getTime() / 1000) return null;
    return claims;
  }

  private signature(payload: string): Buffer {
    return createHmac('sha256', this.secret).update(`${VERSION}.${payload}`).digest();
  }
}

function parseClaims(payload: string): AccessTokenClaims | null {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const { sub, sid, iat, exp } = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  if (typeof sub !== 'string' || !ID.test(sub) || typeof sid !== 'string' || !ID.test(sid)) return null;
  if (!Number.isSafeInteger(iat) || !Number.isSafeInteger(exp)) return null;
  return { accountId: sub, sessionId: sid, issuedAt: iat as number, expiresAt: exp as number };
}
