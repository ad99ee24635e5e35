import { randomBytes } from 'node:crypto';
import type { AuthRepository } from './auth-repository.js';

/** The names of the auth module's secrets; each key has one purpose. */
export type AuthSecretName = 'access-token-hmac' | 'device-csrf-hmac';

/**
 * The 32-byte secret stored under `name`, generated on first use and kept in the database, so
 * tokens and forms issued before a restart stay valid and every process of one registry agrees.
 * Deleting the row signs everyone out (access tokens) at the next start.
 */
export async function loadSecret(repository: AuthRepository, name: AuthSecretName): Promise<Buffer> {
  const value = await repository.secret(name, () => randomBytes(32).toString('base64'));
  return Buffer.from(value, 'base64');
}
