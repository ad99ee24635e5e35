import { isPluginHostError } from '@plughost/host-sdk/core';
import type { GuardedFetcher } from '../network/guarded-fetcher.js';
import { readLimitedBody } from '../network/read-limited-body.js';
import { storeEndpoint } from '../store/store-endpoint.js';

/** The store route of the list (decisions section 6), relative to the API root. */
export const REVOCATION_LIST_PATH = 'developer/keys/revoked';

/** Decisions section 8: API calls other than discovery get 10 s. */
const TIMEOUT_MS = 10_000;
// A key id is 16 hex characters: 1 MiB holds tens of thousands of them.
const LIMIT_BYTES = 1024 * 1024;

/** The raw list bytes, or why they could not be had. */
export type FetchedRevocationList = { readonly ok: true; readonly bytes: Uint8Array } | { readonly ok: false; readonly reason: string };

/**
 * GETs `<store>/developer/keys/revoked` through the guarded fetcher, with a deadline and a body
 * limit. The bytes are returned as they came: the caller verifies them with the root key, so
 * nothing here is trusted. Never throws for the store's failures.
 */
export async function fetchRevocationList(fetcher: GuardedFetcher, store: URL, signal: AbortSignal): Promise<FetchedRevocationList> {
  const url = storeEndpoint(store, REVOCATION_LIST_PATH);
  try {
    const response = await fetcher.request(url, { headers: { accept: 'application/json' }, timeoutMs: TIMEOUT_MS, signal });
    if (response.status < 200 || response.status > 299) {
      response.body.on('error', () => undefined);
      response.abort();
      response.settle();
      return { ok: false, reason: `the store at ${url.host} answered HTTP ${response.status}` };
    }
    return { ok: true, bytes: new Uint8Array(await readLimitedBody(response, LIMIT_BYTES)) };
  } catch (error) {
    if (isPluginHostError(error)) return { ok: false, reason: `the store at ${url.host} could not be used: ${error.message}` };
    throw error;
  }
}
