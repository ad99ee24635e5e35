import { PluginHostError, isPluginHostError } from '@plughost/host-sdk/core';

/** Why a request was aborted: the deadline, or the caller went away. */
export class FetchAbortReason extends Error {
  override readonly name = 'FetchAbortReason';
  constructor(
    readonly kind: 'timeout' | 'caller-gone',
    timeoutMs?: number,
  ) {
    super(kind === 'timeout' ? `The upstream did not answer within ${timeoutMs ?? 0} ms` : 'The caller went away');
  }
}

/**
 * Maps a failure of an upstream exchange to the error vocabulary: our own errors pass through,
 * an abort for the deadline is 504 `PROXY_TIMEOUT`, everything else (refused, reset, TLS, bad
 * HTTP) 502 `PROXY_UPSTREAM_FAILED`. Socket-level details stay out of the message.
 */
export function toUpstreamError(error: unknown, signal: AbortSignal | undefined, host: string): PluginHostError {
  if (isPluginHostError(error)) return error;
  const reason: unknown = signal?.aborted ? signal.reason : undefined;
  if (reason instanceof FetchAbortReason && reason.kind === 'timeout') return new PluginHostError('PROXY_TIMEOUT', reason.message);
  if (reason instanceof FetchAbortReason) return new PluginHostError('PROXY_UPSTREAM_FAILED', reason.message);
  const code = (error as { code?: unknown } | null)?.code;
  return new PluginHostError('PROXY_UPSTREAM_FAILED', `The request to ${host} failed${typeof code === 'string' ? ` (${code})` : ''}`);
}
