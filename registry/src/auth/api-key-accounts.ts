import type { AccountRecord, AuthRepository } from './auth-repository.js';

/**
 * True for an account a publisher API key may act as: one the registry created for a key (kind
 * `api`), which has no password. Never true for an account someone registered.
 */
export function isApiKeyAccount(account: AccountRecord): boolean {
  return account.kind === 'api' && account.passwordHash === null;
}

/**
 * Creates, at start, the API-key account of every key name that has none yet (kind `api`, no
 * password). Each name is an account of its own: registration and password login can never reach
 * it, since it exists from the start and has no password. A name already taken by an account
 * registered with a password would hand that account's owner everything CI publishes with the key,
 * so that is refused, naming the clash, before the registry serves anything.
 *
 * @throws Error naming every clashing name and what to do about it.
 */
export async function ensureApiKeyAccounts(repository: AuthRepository, usernames: readonly string[], now: Date): Promise<void> {
  const clashes: string[] = [];
  for (const username of usernames) {
    const account = await repository.ensureAccount(username, 'api', now);
    if (!isApiKeyAccount(account)) clashes.push(`"${account.username}"`);
  }
  if (clashes.length === 0) return;
  const names = clashes.join(', ');
  throw new Error(
    `API key account ${names} (apiKeys, REGISTRY_API_KEYS): ${names} ${clashes.length === 1 ? 'is an account' : 'are accounts'} registered with a password, ` +
      'and a publisher API key acts as an account of its own that nobody can sign in to. ' +
      'Give the key another name (REGISTRY_API_KEYS=<another name>:<key>); the registered account keeps its password and what it owns.',
  );
}
