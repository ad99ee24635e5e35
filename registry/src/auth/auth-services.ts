import type { RateLimitRepository } from '../limits/rate-limit-repository.js';
import type { RegistryContext } from '../registry-context.js';
import type { AuthRepository } from './auth-repository.js';
import type { Authenticate } from './authenticator.js';
import type { CredentialCheck } from './credential-check.js';
import type { SessionTokens } from './session-tokens.js';

/** What the auth route modules share (built once by `createAuthRouter`). */
export interface AuthServices {
  readonly context: RegistryContext;
  readonly repository: AuthRepository;
  /** Where the attempt limits count (the store's, shared by every instance). */
  readonly limits: RateLimitRepository;
  readonly tokens: SessionTokens;
  readonly credentials: CredentialCheck;
  readonly authenticate: Authenticate;
}
