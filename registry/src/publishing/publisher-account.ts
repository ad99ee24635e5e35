import type { Context } from 'koa';
import { RegistryError } from '../errors/registry-error.js';

/** The account behind a publishing request. */
export interface Publisher {
  readonly accountId: string;
  /** Recorded beside uploads for reviewers; the auth module gives it. */
  readonly username?: string;
}

/**
 * Resolves the account of a request from its `Authorization: Bearer` header (access token or
 * publisher API key), `null` without a valid credential. The auth module's `authenticate` fits.
 */
export type PublishingAuthenticate = (ctx: Context) => Promise<Publisher | null>;

/** The caller's account, or 401 `unauthorized` with `WWW-Authenticate: Bearer` (RFC 6750). */
export async function requirePublisher(ctx: Context, authenticate: PublishingAuthenticate): Promise<Publisher> {
  const account = await authenticate(ctx);
  if (account) return account;
  const challenge = ctx.get('Authorization') === '' ? 'Bearer' : 'Bearer error="invalid_token"';
  throw new RegistryError('unauthorized', 'Sign in first: send Authorization: Bearer <access token or API key>', { 'WWW-Authenticate': challenge });
}
