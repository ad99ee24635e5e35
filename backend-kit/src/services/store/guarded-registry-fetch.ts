import type { RegistryFetch } from '@plughost/host-sdk/core';
import type { GuardedFetcher } from '../network/guarded-fetcher.js';
import { readLimitedBody } from '../network/read-limited-body.js';

/** Limits of one request to the store. */
export interface StoreRequestLimits {
  /** Deadline of the whole exchange, head and body, in milliseconds. */
  readonly timeoutMs: number;
  /** Largest body accepted, in bytes. */
  readonly limitBytes: number;
}

/** Download info and registry metadata are a few hundred bytes; this leaves ample room. */
export const STORE_JSON_LIMITS: StoreRequestLimits = { timeoutMs: 15_000, limitBytes: 256 * 1024 };

/**
 * The `fetch` the core's registry client uses in the backend: every request goes through the
 * SSRF guard (the store's own `host:port` is trusted by the caller's fetcher, nothing else
 * private), with a deadline and a body limit, so a slow or endless store cannot hold a request
 * or the backend's memory. The guard's refusals reject with its `PluginHostError`, which the
 * client names in its message.
 */
export function guardedRegistryFetch(fetcher: GuardedFetcher, limits: StoreRequestLimits = STORE_JSON_LIMITS): RegistryFetch {
  return async (url, init) => {
    const response = await fetcher.request(url, {
      method: init.method,
      headers: { ...init.headers },
      ...(init.body !== undefined ? { body: init.body } : {}),
      timeoutMs: limits.timeoutMs,
      ...(init.signal ? { signal: init.signal } : {}),
    });
    return {
      status: response.status,
      ok: response.status >= 200 && response.status <= 299,
      async arrayBuffer() {
        const bytes = await readLimitedBody(response, limits.limitBytes);
        return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
      },
    };
  };
}
