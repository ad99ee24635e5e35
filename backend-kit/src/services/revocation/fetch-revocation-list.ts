import { createRegistryClient, isPluginHostError, registryFailureOf } from '@plughost/host-sdk/core';
import type { GuardedFetcher } from '../network/guarded-fetcher.js';
import { guardedRegistryFetch, type StoreRequestLimits } from '../store/guarded-registry-fetch.js';

// Decisions section 8: API calls other than discovery get 10 s. A key id is 16 hex characters:
// 1 MiB holds tens of thousands of them.
const LIMITS: StoreRequestLimits = { timeoutMs: 10_000, limitBytes: 1024 * 1024 };

/** The raw list bytes, or why they could not be had. */
export type FetchedRevocationList = { readonly ok: true; readonly bytes: Uint8Array } | { readonly ok: false; readonly reason: string };

/**
 * GETs `<store>/developer/keys/revoked` (`REVOCATION_LIST_PATH`) with the core's registry client, through the guarded
 * fetcher, with a deadline and a body limit. The bytes are returned as they came: the caller
 * verifies them with the root key, so nothing here is trusted. Never throws for the store's
 * failures.
 */
export async function fetchRevocationList(fetcher: GuardedFetcher, store: URL, signal: AbortSignal): Promise<FetchedRevocationList> {
  const registry = createRegistryClient({ baseUrl: store.href, fetch: guardedRegistryFetch(fetcher, LIMITS) });
  try {
    return { ok: true, bytes: await registry.revocationList({ signal }) };
  } catch (error) {
    const failure = registryFailureOf(error);
    if (failure?.status !== undefined && failure.registryFailure === 'registry')
      return { ok: false, reason: `the store at ${store.host} answered HTTP ${failure.status}` };
    if (isPluginHostError(error)) return { ok: false, reason: `the store at ${store.host} could not be used: ${error.message}` };
    throw error;
  }
}
