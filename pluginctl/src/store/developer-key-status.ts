import { storeFailure, storeFetch, StoreError } from './store-http.js';

/** What the store says about one of the caller's keys (`GET /developer/keys/<keyId>`). */
export type DeveloperKeyLookup =
  | {
      readonly kind: 'found';
      /** Packages signed with the key are accepted now (not revoked, certified by the current root). */
      readonly certified: boolean;
      readonly certifiedAt: string;
      /** When the certificate ends; `null` when it carries no expiry (the registry's certificates). */
      readonly expiresAt: string | null;
      readonly revoked: boolean;
      readonly revokedAt: string | null;
    }
  /** The caller's account holds no such key (the store answers a key of another account the same way). */
  | { readonly kind: 'unknown' };

function isoOrNull(value: unknown): value is string | null {
  return value === null || (typeof value === 'string' && !Number.isNaN(Date.parse(value)));
}

/**
 * Asks the store about one of the signed-in account's keys, read-only (nothing is uploaded or
 * certified; `publish` does that).
 *
 * @throws StoreError `STORE_UNREACHABLE`; `UNAUTHORIZED` when the store refuses `token`;
 *   `STORE_ERROR` for any other answer, a malformed one included.
 */
export async function lookUpDeveloperKey(base: string, keyId: string, token: string, timeoutMs?: number): Promise<DeveloperKeyLookup> {
  const path = `/developer/keys/${encodeURIComponent(keyId)}`;
  const answer = await storeFetch(base, path, { token, ...(timeoutMs !== undefined ? { timeoutMs } : {}) });
  if (answer.status === 404) return { kind: 'unknown' };
  if (answer.status !== 200) throw storeFailure(`GET ${path}`, answer, 'Check the session (pluginctl login) and the store address.');
  const body = (typeof answer.body === 'object' && answer.body !== null ? answer.body : {}) as Record<string, unknown>;
  const { certified, certifiedAt, revoked } = body;
  // A store whose certificates never expire may leave the field out.
  const expiresAt = body.expiresAt ?? null;
  const revokedAt = body.revokedAt ?? null;
  if (typeof certified !== 'boolean' || typeof revoked !== 'boolean' || typeof certifiedAt !== 'string' || !isoOrNull(expiresAt) || !isoOrNull(revokedAt)) {
    throw new StoreError('STORE_ERROR', `The store's answer to GET ${path} is not a key status; check that --api names a plughost store.`, answer.status);
  }
  return { kind: 'found', certified, certifiedAt, expiresAt, revoked, revokedAt };
}
