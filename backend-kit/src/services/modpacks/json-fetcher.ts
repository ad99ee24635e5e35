/**
 * The {@link JsonFetcher} of the modpack resolvers: GETs through the SSRF-guarded fetcher, with a
 * body limit and a deadline, and turns API failures into `MODPACK_SOURCE_INVALID`.
 */
import { PluginHostError } from '@plughost/host-sdk/core';
import type { GuardedFetcher } from '../network/guarded-fetcher.js';
import { readLimitedBody } from '../network/read-limited-body.js';
import type { JsonFetcher } from './modpack-plan.js';

/** Options of {@link createJsonFetcher}. */
export interface JsonFetcherOptions {
  /** Largest body accepted, in bytes; default 8 MiB (a big pack's version list stays well below). */
  readonly limitBytes?: number;
  /** Deadline of each request, head and body, in milliseconds; default 20 000. */
  readonly timeoutMs?: number;
}

/** Default of {@link JsonFetcherOptions.limitBytes}: 8 MiB. */
export const DEFAULT_JSON_LIMIT_BYTES = 8 * 1024 * 1024;

/** Default of {@link JsonFetcherOptions.timeoutMs}. */
export const DEFAULT_JSON_TIMEOUT_MS = 20_000;

function readPositiveOption(value: number | undefined, field: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0) throw new PluginHostError('INVALID_ARGUMENT', `${field} must be a positive integer`, { field });
  return value;
}

// `fatal`: a body that is not UTF-8 is refused rather than parsed with replacement characters.
// The decoder drops a leading byte order mark, which JSON.parse would choke on.
const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Creates a JSON fetcher on top of the guarded fetcher. Each request sends
 * `accept: application/json`.
 *
 * @param fetcher - The backend's SSRF-guarded fetcher (its trusted hosts apply).
 * @throws PluginHostError `INVALID_ARGUMENT` for a limit or timeout that is not a positive integer.
 *   `getJson` throws `PROXY_*` unchanged when the guard refuses or the exchange fails, and
 *   `MODPACK_SOURCE_INVALID` naming the host for a non-2xx status or a body that is not JSON.
 */
export function createJsonFetcher(fetcher: GuardedFetcher, options: JsonFetcherOptions = {}): JsonFetcher {
  const limitBytes = readPositiveOption(options.limitBytes, 'limitBytes', DEFAULT_JSON_LIMIT_BYTES);
  const timeoutMs = readPositiveOption(options.timeoutMs, 'timeoutMs', DEFAULT_JSON_TIMEOUT_MS);
  return {
    async getJson(url, headers = {}) {
      // Ours last, so a caller's `Accept` in any spelling cannot ask for something else.
      const response = await fetcher.request(url, { headers: { ...headers, accept: 'application/json' }, timeoutMs });
      const host = response.url.host;
      if (response.status < 200 || response.status > 299) {
        // The error body is not read: it may be large and says nothing the status does not.
        response.body.on('error', () => undefined);
        response.abort();
        response.settle();
        throw new PluginHostError('MODPACK_SOURCE_INVALID', `${host} answered HTTP ${response.status} ${response.statusText}`.trim(), {
          host,
          status: response.status,
        });
      }
      const bytes = await readLimitedBody(response, limitBytes);
      try {
        return JSON.parse(decoder.decode(bytes)) as unknown;
      } catch {
        throw new PluginHostError('MODPACK_SOURCE_INVALID', `${host} answered HTTP ${response.status} with a body that is not JSON`, {
          host,
          status: response.status,
        });
      }
    },
  };
}
