import { PluginHostError, isPluginHostError } from '@plughost/host-sdk/core';
import type { GuardedFetcher } from '../network/guarded-fetcher.js';
import { readLimitedBody } from '../network/read-limited-body.js';

/** Limits of one JSON request to the store. */
export interface StoreJsonLimits {
  /** Deadline of the whole exchange, head and body, in milliseconds. */
  readonly timeoutMs: number;
  /** Largest body accepted, in bytes. */
  readonly limitBytes: number;
}

/** Download info and registry metadata are a few hundred bytes; this leaves ample room. */
export const STORE_JSON_LIMITS: StoreJsonLimits = { timeoutMs: 15_000, limitBytes: 256 * 1024 };

/** A JSON answer of the store, or its 404 (the only failure status a caller acts on). */
export type StoreJsonAnswer = { readonly found: true; readonly body: unknown } | { readonly found: false };

// `fatal`: a body that is not UTF-8 is refused rather than parsed with replacement characters.
const decoder = new TextDecoder('utf-8', { fatal: true });

function unavailable(url: URL, problem: string): PluginHostError {
  return new PluginHostError('STORE_UNAVAILABLE', `The store at ${url.host} ${problem}`);
}

/**
 * GETs `url` from the store through the guarded fetcher, with a deadline and a body limit.
 * 404 is returned as `{found: false}`; any other failure is the store's.
 *
 * @throws PluginHostError `STORE_UNAVAILABLE` when the store cannot be reached, times out,
 *   answers another non-2xx status, or a body that is too large or not JSON.
 */
export async function getStoreJson(fetcher: GuardedFetcher, url: URL, options: { signal?: AbortSignal; limits?: StoreJsonLimits } = {}): Promise<StoreJsonAnswer> {
  const { timeoutMs, limitBytes } = options.limits ?? STORE_JSON_LIMITS;
  try {
    const response = await fetcher.request(url, { headers: { accept: 'application/json' }, timeoutMs, ...(options.signal ? { signal: options.signal } : {}) });
    if (response.status < 200 || response.status > 299) {
      // The error body is not read: the status says what the caller acts on.
      response.body.on('error', () => undefined);
      response.abort();
      response.settle();
      if (response.status === 404) return { found: false };
      throw unavailable(url, `answered HTTP ${response.status} ${response.statusText}`.trim());
    }
    const bytes = await readLimitedBody(response, limitBytes);
    try {
      return { found: true, body: JSON.parse(decoder.decode(bytes)) as unknown };
    } catch {
      throw unavailable(url, 'answered with a body that is not JSON');
    }
  } catch (error) {
    if (isPluginHostError(error, 'STORE_UNAVAILABLE')) throw error;
    if (isPluginHostError(error, 'PROXY_BODY_TOO_LARGE')) throw unavailable(url, `answered with more than ${limitBytes} bytes of JSON`);
    // The guard's refusals, timeouts and network failures: the store could not be used.
    if (isPluginHostError(error)) throw unavailable(url, `could not be used: ${error.message}`);
    throw error;
  }
}
