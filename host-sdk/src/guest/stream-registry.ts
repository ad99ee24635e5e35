/** `proxyFetchStream` / `streamEvent`: proxied server-sent event streams, by request id. */
import type { ProxyStreamHandlers, ProxyStreamRequest } from './plugin-api.js';
import type { HostAccess } from './host-session.js';
import { requireArgument, reviveError } from './bridge-error.js';
import type { CaughtErrors } from './error-reporter.js';
import { isName, isRecord } from './guards.js';
import { callIsolated } from './isolated-call.js';

/** The streams of this frame. */
export interface StreamRegistry {
  /** `__PLUGIN_API__.proxyFetchStream`. */
  start(request: ProxyStreamRequest, handlers: ProxyStreamHandlers): Promise<void>;
  /** `GuestMethods.streamEvent`: delivers one event, in the order they arrive. */
  deliver(requestId: unknown, event: unknown): Promise<void>;
}

/** A registry whose handlers live only in this closure; what they throw goes to `errors`. */
export function createStreamRegistry(host: HostAccess, newId: () => string, errors: CaughtErrors): StreamRegistry {
  /** Each running stream's receiver of its events, by request id. */
  const streams = new Map<string, (event: Readonly<Record<string, unknown>>) => void>();

  return {
    async start(request, handlers) {
      requireArgument(isRecord(request), 'proxyFetchStream needs a request object');
      requireArgument(isRecord(handlers) && typeof handlers.onChunk === 'function', 'proxyFetchStream needs handlers with onChunk');
      // The signal cannot cross: the host hears of an abort through `abortStream`.
      const { signal, ...wireRequest } = request;
      requireArgument(signal === undefined || signal instanceof AbortSignal, 'signal must be an AbortSignal');
      if (signal?.aborted) return;
      const requestId = newId();

      return new Promise<void>((resolve, reject) => {
        /** Stops delivery and detaches from the signal; `false` when the stream had already ended. */
        const end = (): boolean => {
          signal?.removeEventListener('abort', onAbort);
          return streams.delete(requestId);
        };
        const onAbort = (): void => {
          if (!end()) return;
          resolve();
          host('abortStream', requestId).catch(() => undefined);
        };
        // Registered before the host hears of the stream: its first events may precede its answer.
        streams.set(requestId, ({ kind, data, error }) => {
          if (kind === 'chunk') {
            if (typeof data === 'string') callIsolated(() => handlers.onChunk(data), errors, 'proxyFetchStream onChunk');
          } else if (kind === 'error' || kind === 'end') {
            end();
            resolve();
            if (kind === 'error') {
              const revived = reviveError(error);
              callIsolated(() => handlers.onError?.(revived), errors, 'proxyFetchStream onError');
            }
          }
        });
        signal?.addEventListener('abort', onAbort);
        host('callDirect', 'proxyFetchStream', [requestId, wireRequest]).catch((error: unknown) => {
          if (end()) reject(error);
        });
      });
    },

    async deliver(requestId, event) {
      const receive = isName(requestId) ? streams.get(requestId) : undefined;
      if (receive && isRecord(event)) receive(event);
    },
  };
}
