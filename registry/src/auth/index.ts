export { createAuthModule, type AuthModule } from './create-auth-module.js';
export { createAuthRouter } from './create-auth-router.js';
export { createAuthenticator, requireAccount, bearerTokenOf, type Authenticate, type SignedInAccount } from './authenticator.js';
export { SqliteAuthRepository } from './sqlite-auth-repository.js';
export { PostgresAuthRepository } from './postgres-auth-repository.js';
export { AUTH_MIGRATIONS } from './auth-migrations.js';
export { POSTGRES_AUTH_MIGRATIONS } from './postgres-auth-migrations.js';
export type {
  AccountKind,
  AccountRecord,
  AuthRepository,
  DeviceAuthorizationRecord,
  DeviceAuthorizationStatus,
  DeviceDecision,
  NewAccount,
  NewDeviceAuthorization,
  NewSession,
  RefreshOutcome,
  SessionRecord,
} from './auth-repository.js';
export { OAuthError, isOAuthError, type OAuthErrorCode } from './auth-errors.js';
export { ACCESS_TOKEN_LIFETIME_SECONDS } from './access-token.js';
export { SESSION_LIFETIME_MS, type TokenResponse } from './session-tokens.js';
export { DEVICE_CODE_GRANT_TYPE, DEVICE_CODE_LIFETIME_SECONDS, DEVICE_POLL_INTERVAL_SECONDS } from './device-flow-routes.js';
export { hashPassword, verifyPassword, needsRehash, DEFAULT_SCRYPT_COST, type ScryptCost } from './password-hash.js';
export { normalizeUsername, USERNAME_PATTERN, MINIMUM_PASSWORD_LENGTH } from './credential-rules.js';
