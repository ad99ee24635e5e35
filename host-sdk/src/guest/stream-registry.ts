/** `proxyFetchStream` / `streamEvent`: proxied server-sent event streams, by request id. */
import type { ProxyStreamHandlers, ProxyStreamRequest } from './plugin-api.js';
import type { HostAccess } from './host-session.js';
import { bridgeError, reviveError } from './bridge-error.js';
import type { CaughtErrors } from './error-reporter.js';
import { callHostDirect } from './host-calls.js';
import { isName, isRecord } from './guards.js';
import { callIsolated } from './isolated-call.js';

/** The streams of this frame. */
export interface StreamRegistry {
  /** `__PLUGIN_API__.proxyFetchStream`. */
  start(request: ProxyStreamRequest, handlers: ProxyStreamHandlers): Promise<void>;
  /** `GuestMethods.streamEvent`: delivers one event, in the order they arrive. */
  deliver(requestId: unknown, event: unknown): void;
}

/** A running stream: where its events go and how it ends. */
interface OpenStream {
  readonly handlers: ProxyStreamHandlers;
  /** Stops delivery, detaches from the signal and settles the caller's promise. */
  readonly finish: () => void;
}

/** The ProxyRequest without `signal` (which cannot cross, and is replaced by `abortStream`). */
function withoutSignal(request: ProxyStreamRequest): Record<string, unknown> {
  const { signal: _signal, ...rest } = request;
  return rest;
}

/** A registry whose handlers live only in this closure; what they throw goes to `errors`. */
export function createStreamRegistry(host: HostAccess, newId: () => string, errors: CaughtErrors): StreamRegistry {
  const streams = new Map<string, OpenStream>();

  return {
    start(request, handlers) {
      if (!isRecord(request)) return Promise.reject(bridgeError('proxyFetchStream needs a request object', 'INVALID_ARGUMENT'));
      if (!isRecord(handlers) || typeof handlers.onChunk !== 'function') {
        return Promise.reject(bridgeError('proxyFetchStream needs handlers with onChunk', 'INVALID_ARGUMENT'));
      }
      const signal = request.signal;
      if (signal !== undefined && !(signal instanceof AbortSignal)) {
        return Promise.reject(bridgeError('signal must be an AbortSignal', 'INVALID_ARGUMENT'));
      }
      if (signal?.aborted) return Promise.resolve();
      const wireRequest = withoutSignal(request);
      const requestId = newId();

      return new Promise<void>((resolve, reject) => {
        const onAbort = (): void => {
          if (!streams.has(requestId)) return;
          finish();
          void host()
            .then((remote) => remote.abortStream(requestId))
            .catch(() => undefined);
        };
        const finish = (): void => {
          streams.delete(requestId);
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        // Registered before the host hears of the stream: its first events may precede its answer.
        streams.set(requestId, { handlers, finish });
        signal?.addEventListener('abort', onAbort);
        callHostDirect(host, 'proxyFetchStream', [requestId, wireRequest]).catch((error: unknown) => {
          if (!streams.has(requestId)) return;
          streams.delete(requestId);
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        });
      });
    },

    deliver(requestId, event) {
      const stream = isName(requestId) ? streams.get(requestId) : undefined;
      if (!stream || !isRecord(event)) return;
      switch (event.kind) {
        case 'chunk':
          if (typeof event.data === 'string') {
            const data = event.data;
            callIsolated(() => stream.handlers.onChunk(data), errors, 'proxyFetchStream onChunk');
          }
          return;
        case 'error': {
          stream.finish();
          const error = reviveError(event.error);
          callIsolated(() => stream.handlers.onError?.(error), errors, 'proxyFetchStream onError');
          return;
        }
        case 'end':
          stream.finish();
          return;
        default:
          return;
      }
    },
  };
}
