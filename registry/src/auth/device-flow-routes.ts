import type Router from '@koa/router';
import { OAuthError } from './auth-errors.js';
import { authRoute, stringField } from './auth-route.js';
import type { AuthServices } from './auth-services.js';
import { newOpaqueToken, tokenDigest } from './opaque-token.js';
import { clientAddressOf } from '../http/client-address.js';
import { publicApiRoot } from '../http/public-url.js';
import { StoredRateLimiter } from '../limits/stored-rate-limiter.js';
import { displayUserCode, newUserCode } from './user-code.js';

/** The grant type of the device-code exchange (RFC 8628 section 3.4). */
export const DEVICE_CODE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';
/** A device code and its user code live 15 minutes. */
export const DEVICE_CODE_LIFETIME_SECONDS = 900;
/** The polling interval a client starts with. */
export const DEVICE_POLL_INTERVAL_SECONDS = 5;
/** Seconds added to the interval by each `slow_down` (RFC 8628 section 3.5). */
export const SLOW_DOWN_SECONDS = 5;
/** Device authorization requests allowed per client address in 15 minutes. */
export const DEVICE_CODE_LIMIT = 30;

const CLIENT_ID = /^[\x21-\x7e]{1,128}$/;

/**
 * The device authorization grant (RFC 8628): `POST /auth/device/code` starts a request,
 * `POST /auth/token` polls it and, once the user approved it on the verification page
 * (`GET /device`), exchanges the device code once for a token pair. Errors use the OAuth shape.
 */
export function addDeviceFlowRoutes(router: Router, services: AuthServices): void {
  const { context, repository, tokens, limits } = services;
  const requests = new StoredRateLimiter(limits, { bucket: 'device-code', limit: DEVICE_CODE_LIMIT, windowMs: 15 * 60 * 1000, now: () => context.now() });

  router.post(
    '/auth/device/code',
    authRoute('oauth', async (ctx, fields) => {
      const clientId = stringField(fields, 'client_id');
      if (clientId === null || (clientId !== undefined && !CLIENT_ID.test(clientId))) {
        throw new OAuthError('invalid_request', 'client_id must be 1 to 128 printable ASCII characters');
      }
      const addressKey = `address:${clientAddressOf(ctx)}`;
      const wait = await requests.retryAfterMs(addressKey);
      if (wait > 0)
        throw new OAuthError('rate_limited', 'Too many device authorization requests; try again later', 429, { 'Retry-After': String(Math.ceil(wait / 1000)) });
      await requests.hit(addressKey);

      const now = context.now();
      await repository.deleteExpired(now);
      const deviceCode = newOpaqueToken();
      let userCode: string | null = null;
      // A clash of user codes is rare (2.6e10 codes, only live ones kept); try a few fresh ones.
      for (let attempt = 0; attempt < 5 && userCode === null; attempt++) {
        const candidate = newUserCode();
        const created = await repository.createDeviceAuthorization({
          deviceCodeHash: tokenDigest(deviceCode),
          userCode: candidate,
          clientId: clientId ?? null,
          intervalSeconds: DEVICE_POLL_INTERVAL_SECONDS,
          createdAt: now,
          expiresAt: new Date(now.getTime() + DEVICE_CODE_LIFETIME_SECONDS * 1000),
        });
        if (created) userCode = candidate;
      }
      if (userCode === null) throw new Error('No free user code found');

      const verificationUri = `${publicApiRoot(ctx, context.options)}/device`;
      ctx.set('Cache-Control', 'no-store');
      ctx.body = {
        device_code: deviceCode,
        user_code: displayUserCode(userCode),
        verification_uri: verificationUri,
        verification_uri_complete: `${verificationUri}?user_code=${displayUserCode(userCode)}`,
        expires_in: DEVICE_CODE_LIFETIME_SECONDS,
        interval: DEVICE_POLL_INTERVAL_SECONDS,
      };
    }),
  );

  router.post(
    '/auth/token',
    authRoute('oauth', async (ctx, fields) => {
      const grantType = stringField(fields, 'grant_type');
      if (!grantType) throw new OAuthError('invalid_request', 'grant_type is required');
      if (grantType !== DEVICE_CODE_GRANT_TYPE)
        throw new OAuthError('unsupported_grant_type', `Only ${DEVICE_CODE_GRANT_TYPE} is supported here; refresh through POST /auth/refresh`);
      const deviceCode = stringField(fields, 'device_code');
      if (!deviceCode) throw new OAuthError('invalid_request', 'device_code is required');
      const clientId = stringField(fields, 'client_id');

      const request = await repository.findDeviceAuthorizationByDeviceCode(tokenDigest(deviceCode));
      if (!request) throw new OAuthError('invalid_grant', 'Unknown device code');
      if (typeof clientId === 'string' && request.clientId !== null && clientId !== request.clientId) {
        throw new OAuthError('invalid_grant', 'The device code was issued to another client');
      }
      if (request.exchangedAt !== null) throw new OAuthError('invalid_grant', 'The device code was already exchanged');
      const now = context.now();
      if (now.getTime() >= request.expiresAt.getTime()) throw new OAuthError('expired_token', 'The device code expired; start again');
      if (request.lastPolledAt && now.getTime() - request.lastPolledAt.getTime() < request.intervalSeconds * 1000) {
        const interval = request.intervalSeconds + SLOW_DOWN_SECONDS;
        await repository.recordDevicePoll(request.id, now, interval);
        throw new OAuthError('slow_down', `Polling too fast; wait ${interval} seconds between requests`);
      }
      await repository.recordDevicePoll(request.id, now, request.intervalSeconds);
      if (request.status === 'denied') throw new OAuthError('access_denied', 'The request was denied');
      if (request.status === 'pending' || request.accountId === null)
        throw new OAuthError('authorization_pending', 'Waiting for the user to approve the request');
      if (!(await repository.markDeviceAuthorizationExchanged(request.id, now))) throw new OAuthError('invalid_grant', 'The device code was already exchanged');
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await tokens.issue(request.accountId);
    }),
  );
}
