import { PluginHostError } from '@plughost/host-sdk/core';
import type { GuardedResponse } from './guarded-fetcher.js';

/** The default limit on a buffered upstream body: 10 MiB. */
export const DEFAULT_BODY_LIMIT = 10 * 1024 * 1024;

/**
 * Reads the whole (decoded) body into memory, refusing more than `limit` bytes so an endless or
 * huge upstream cannot exhaust the backend's memory. Settles the deadline when done.
 *
 * @throws PluginHostError `PROXY_BODY_TOO_LARGE`, `PROXY_TIMEOUT` or `PROXY_UPSTREAM_FAILED`.
 */
export async function readLimitedBody(response: GuardedResponse, limit: number = DEFAULT_BODY_LIMIT): Promise<Buffer> {
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    response.abort();
    throw new PluginHostError('PROXY_BODY_TOO_LARGE', `The upstream body is larger than ${limit} bytes`, { limit });
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      size += buffer.length;
      if (size > limit) {
        response.abort();
        throw new PluginHostError('PROXY_BODY_TOO_LARGE', `The upstream body is larger than ${limit} bytes`, { limit });
      }
      chunks.push(buffer);
    }
  } catch (error) {
    response.settle();
    throw response.toError(error);
  }
  response.settle();
  return Buffer.concat(chunks);
}
