import type Router from '@koa/router';
import { OAuthError } from './auth-errors.js';
import { authRoute, stringField } from './auth-route.js';
import type { AuthServices } from './auth-services.js';
import { bearerTokenOf } from './authenticator.js';
import { RegistryError } from '../errors/registry-error.js';

const REFUSALS = {
  unknown: 'Unknown refresh token',
  revoked: 'The session of this refresh token was revoked; sign in again',
  expired: 'The session expired; sign in again',
  reused: 'This refresh token was already used, so the session is revoked; sign in again',
} as const;

/**
 * `POST /auth/refresh` `{refresh_token}` → a new token pair (rotation; a reused token answers 401
 * `invalid_grant` and revokes its family) and `POST /auth/logout` (revokes a session) → 204.
 */
export function addSessionRoutes(router: Router, services: AuthServices): void {
  const { tokens } = services;

  router.post(
    '/auth/refresh',
    authRoute('oauth', async (ctx, fields) => {
      const refreshToken = stringField(fields, 'refresh_token');
      if (!refreshToken) throw new OAuthError('invalid_request', 'Send {refresh_token}');
      const result = await tokens.refresh(refreshToken);
      if (result.kind === 'refused') throw new OAuthError('invalid_grant', REFUSALS[result.reason], 401);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = result.tokens;
    }),
  );

  // Like token revocation (RFC 7009), an unknown refresh token still answers 204: there is nothing
  // to learn from it. Without a body, the bearer access token's session is ended.
  router.post(
    '/auth/logout',
    authRoute('registry', async (ctx, fields) => {
      const refreshToken = stringField(fields, 'refresh_token');
      if (refreshToken) {
        await tokens.revokeByRefreshToken(refreshToken);
      } else {
        const bearer = bearerTokenOf(ctx);
        if (bearer === null) throw new RegistryError('invalid_argument', 'Send {refresh_token} or an access token as Authorization: Bearer');
        const session = await tokens.verifyAccessToken(bearer);
        if (!session) {
          throw new RegistryError('unauthorized', 'The access token is invalid or expired; send {refresh_token} instead', {
            'WWW-Authenticate': 'Bearer error="invalid_token"',
          });
        }
        await tokens.revokeSession(session.sessionId);
      }
      ctx.status = 204;
    }),
  );
}
