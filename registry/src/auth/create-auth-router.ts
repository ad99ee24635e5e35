import Router from '@koa/router';
import type { RegistryContext } from '../registry-context.js';
import { addAccountRoutes } from './account-routes.js';
import type { RateLimitRepository } from '../limits/rate-limit-repository.js';
import type { AuthRepository } from './auth-repository.js';
import type { AuthServices } from './auth-services.js';
import { createAuthenticator } from './authenticator.js';
import { CredentialCheck } from './credential-check.js';
import { addDeviceFlowRoutes } from './device-flow-routes.js';
import { SessionTokens } from './session-tokens.js';
import { addSessionRoutes } from './session-routes.js';
import { addVerificationPageRoutes } from './verification-page-routes.js';

/**
 * The routes of accounts and login, relative to the API root (mount the router under `/api/v1`):
 *
 * | Route | Answer |
 * |---|---|
 * | `POST /auth/register` `{username, password}` | 201 `{id, username}` |
 * | `POST /auth/login` `{username, password}` | `{access_token, token_type, expires_in, refresh_token}` |
 * | `GET /auth/me` | `{id, username}` of the bearer |
 * | `POST /auth/device/code` `{client_id?}` | RFC 8628 device authorization response |
 * | `POST /auth/token` `{grant_type, device_code}` | token response once approved |
 * | `POST /auth/refresh` `{refresh_token}` | a new token pair (rotation) |
 * | `POST /auth/logout` `{refresh_token}` or bearer | 204 |
 * | `GET`/`POST /device` | the verification page (HTML) |
 *
 * Bodies may be JSON or form-encoded. The OAuth endpoints (`/auth/device/code`, `/auth/token`,
 * `/auth/refresh`) answer errors as `{error, error_description}`; the others as
 * `{error: {code, message}}`. Each route answers its own errors, so the shapes hold whatever
 * error middleware the application mounts. Attempt limits count in `limits` (default the store's),
 * so every registry instance of one store enforces them together.
 */
export function createAuthRouter(context: RegistryContext, repository: AuthRepository, limits: RateLimitRepository = context.store.limits): Router {
  const router = new Router({ strict: true, sensitive: true });
  const services: AuthServices = {
    context,
    repository,
    limits,
    tokens: new SessionTokens(context, repository),
    credentials: new CredentialCheck(context, repository, limits),
    authenticate: createAuthenticator(context, repository),
  };
  addAccountRoutes(router, services);
  addSessionRoutes(router, services);
  addDeviceFlowRoutes(router, services);
  addVerificationPageRoutes(router, services);
  return router;
}
