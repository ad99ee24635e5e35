import type { Context } from 'koa';
import type { RegistryContext } from '../registry-context.js';
import { isApiKeyAccount } from './api-key-accounts.js';
import { ApiKeys } from './api-keys.js';
import type { AuthRepository } from './auth-repository.js';
import { SessionTokens } from './session-tokens.js';
import { RegistryError } from '../errors/registry-error.js';

/** Who made a request. */
export interface SignedInAccount {
  readonly accountId: string;
  /** Lower-cased. */
  readonly username: string;
  /** `api_key` for a publisher API key (CI), `access_token` for a login session. */
  readonly method: 'access_token' | 'api_key';
}

/** Reads a request's `Authorization: Bearer` header; `null` when it carries no valid credential. */
export type Authenticate = (ctx: Pick<Context, 'get'>) => Promise<SignedInAccount | null>;

const BEARER = /^Bearer[ \t]+([\x21-\x7e]+)[ \t]*$/i;

/** The token of an `Authorization: Bearer <token>` header (scheme case-insensitive, RFC 9110), or `null`. */
export function bearerTokenOf(ctx: Pick<Context, 'get'>): string | null {
  return BEARER.exec(ctx.get('Authorization'))?.[1] ?? null;
}

/**
 * Makes the function other registry modules use to learn who is calling. It accepts a login
 * session's access token (signature, 15-minute expiry, session not revoked) or a publisher API
 * key from `options.apiKeys`, which acts as its own API-key account (created without a password if
 * it is missing) and never as an account registered with a password.
 *
 * @example
 * ```ts
 * const authenticate = createAuthenticator(context, repository);
 * router.get('/plugins/mine', async (ctx) => {
 *   const account = await requireAccount(ctx, authenticate);
 *   ctx.body = await catalog.pluginsOwnedBy(account.accountId);
 * });
 * ```
 */
export function createAuthenticator(context: RegistryContext, repository: AuthRepository): Authenticate {
  const tokens = new SessionTokens(context, repository);
  const apiKeys = new ApiKeys(context.options.apiKeys);
  return async function authenticate(ctx) {
    const token = bearerTokenOf(ctx);
    if (token === null) return null;
    const session = await tokens.verifyAccessToken(token);
    if (session) return { accountId: session.account.id, username: session.account.username, method: 'access_token' };
    const username = apiKeys.match(token);
    if (username === null) return null;
    const account = await repository.ensureAccount(username, 'api', context.now());
    // The start refuses such a clash; this keeps a key from ever acting as someone's password account.
    if (!isApiKeyAccount(account)) return null;
    return { accountId: account.id, username: account.username, method: 'api_key' };
  };
}

/**
 * The caller's account, or 401 `unauthorized` with `WWW-Authenticate: Bearer` (plus
 * `error="invalid_token"` when a token was sent but is invalid, expired or revoked, RFC 6750).
 * The header is set on `ctx` and carried on the thrown {@link RegistryError}.
 */
export async function requireAccount(ctx: Pick<Context, 'get' | 'set'>, authenticate: Authenticate): Promise<SignedInAccount> {
  const account = await authenticate(ctx);
  if (account) return account;
  const challenge = bearerTokenOf(ctx) === null ? 'Bearer' : 'Bearer error="invalid_token"';
  ctx.set('WWW-Authenticate', challenge);
  throw new RegistryError('unauthorized', 'Sign in first: send Authorization: Bearer <access token or API key>', { 'WWW-Authenticate': challenge });
}
