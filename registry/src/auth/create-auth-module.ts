import type Router from '@koa/router';
import type { RegistryContext } from '../registry-context.js';
import { ensureApiKeyAccounts } from './api-key-accounts.js';
import { ApiKeys } from './api-keys.js';
import type { AuthRepository } from './auth-repository.js';
import { createAuthenticator, type Authenticate } from './authenticator.js';
import { createAuthRouter } from './create-auth-router.js';

/** The auth module as the registry composes it. */
export interface AuthModule {
  /** Routes relative to the API root; mount under `/api/v1`. */
  readonly router: Router;
  readonly repository: AuthRepository;
  /** Who is calling (access token or API key); other modules guard routes with `requireAccount(ctx, authenticate)`. */
  readonly authenticate: Authenticate;
}

/**
 * Sets up accounts and login on the store's `AuthRepository` (unless another is given): checks `options.apiKeys`, creates the API-key account
 * (kind `api`, no password) of each key name that has none yet, and drops expired sessions and device requests.
 *
 * @throws Error when an API key entry is invalid (bad username, a key that is empty, shorter than 32 characters or configured twice), or
 * when a key's name belongs to an account registered with a password (the message names it).
 * @example
 * ```ts
 * const auth = await createAuthModule(context);
 * api.use(auth.router.routes(), auth.router.allowedMethods());
 * ```
 */
export async function createAuthModule(context: RegistryContext, repository: AuthRepository = context.store.auth): Promise<AuthModule> {
  const apiKeys = new ApiKeys(context.options.apiKeys);
  await ensureApiKeyAccounts(repository, apiKeys.usernames, context.now());
  await repository.deleteExpired(context.now());
  return { router: createAuthRouter(context, repository), repository, authenticate: createAuthenticator(context, repository) };
}
