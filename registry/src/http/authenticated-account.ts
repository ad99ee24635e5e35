import type { Context } from 'koa';

/** The account behind a request, as the auth module resolves it. */
export interface AuthenticatedAccount {
  readonly accountId: string;
  /** Shown beside what the account writes (reviews); omitted when absent. */
  readonly displayName?: string;
}

/**
 * Resolves the account of a request from its `Authorization: Bearer` header (an access token or a
 * publisher API key), or `null` when there is none or it is not valid. The auth module provides
 * it; write routes answer 401 `unauthorized` on `null`.
 */
export type RegistryAuthenticate = (ctx: Context) => Promise<AuthenticatedAccount | null>;

/** The authenticator of a registry without accounts: nobody is signed in. */
export const noAuthentication: RegistryAuthenticate = async () => null;
