import { isPluginHostError, registryFailureOf, type RegistrySources } from '@plughost/host-sdk/core';

/** The raw list bytes, or why they could not be had. */
export type FetchedRevocationList =
  | { readonly ok: true; readonly bytes: Uint8Array }
  | { readonly ok: false; readonly reason: string }
  /** No primary source is enabled. */
  | { readonly ok: false; readonly notConfigured: true };

/**
 * GETs the primary source's `developer/keys/revoked` (`REVOCATION_LIST_PATH`): decisions section 8
 * takes the list from the primary only, so a backup can never hand the launcher an older or
 * emptier list. The call has the sources' deadline (10 s) and goes through the SSRF guard. The
 * bytes are returned as they came: the caller verifies them with the root key, so nothing here is
 * trusted. Never throws for the store's failures.
 */
export async function fetchRevocationList(sources: Pick<RegistrySources, 'onPrimary'>, signal: AbortSignal): Promise<FetchedRevocationList> {
  try {
    const { value } = await sources.onPrimary((client, deadline) => client.revocationList({ signal: deadline }), { signal });
    return { ok: true, bytes: value };
  } catch (error) {
    if (isPluginHostError(error, 'STORE_NOT_CONFIGURED')) return { ok: false, notConfigured: true };
    const failure = registryFailureOf(error);
    if (failure?.status !== undefined && failure.registryFailure === 'registry')
      return { ok: false, reason: `the primary store answered HTTP ${failure.status}` };
    if (isPluginHostError(error)) return { ok: false, reason: `the primary store could not be used: ${error.message}` };
    throw error;
  }
}
