/**
 * Reads the backend's download event stream (`GET /api/plugins/download/events`) with `fetch` and
 * `readEventStream`, and reconnects with a growing delay whenever the stream ends or fails.
 */
import { readEventStream } from '@plughost/host-sdk/core';
import { backendFetch } from '../plugin-manager/backend-request.js';
import { readSnapshot, type DownloadCenterSource, type DownloadSessionSnapshot } from './snapshot.js';

/** Delays before the 1st, 2nd, ... reconnection; the last one repeats. */
export const DEFAULT_RECONNECT_DELAYS: readonly number[] = [1000, 2000, 5000, 10_000, 20_000, 30_000];

/** The state of the connection, as the element shows it. */
export type ConnectionState =
  | { readonly kind: 'idle' }
  | { readonly kind: 'connecting' }
  | { readonly kind: 'open' }
  | { readonly kind: 'reconnecting'; readonly delayMs: number; readonly reason: string };

/** What the connection reports. */
export interface EventConnectionCallbacks {
  snapshot(snapshot: DownloadSessionSnapshot): void;
  state(state: ConnectionState): void;
}

/**
 * One reading loop; `stop()` aborts the request in flight and any wait. Each attempt reads the
 * source again, so a launcher that swaps its token in place is picked up at the next attempt.
 */
export class DownloadEventConnection {
  readonly #controller = new AbortController();

  constructor(
    private readonly source: () => DownloadCenterSource | undefined,
    private readonly delays: () => readonly number[],
    private readonly callbacks: EventConnectionCallbacks,
  ) {}

  start(): void {
    void this.#run();
  }

  stop(): void {
    this.#controller.abort();
  }

  get stopped(): boolean {
    return this.#controller.signal.aborted;
  }

  async #run(): Promise<void> {
    const { signal } = this.#controller;
    let attempt = 0;
    while (!signal.aborted) {
      const source = this.source();
      if (!source) return;
      let reason = 'the event stream ended';
      // While retrying, the element keeps showing its "reconnecting" notice.
      if (attempt === 0) this.callbacks.state({ kind: 'connecting' });
      try {
        const response = await backendFetch(source, '/api/plugins/download/events', {
          headers: { accept: 'text/event-stream' },
          cache: 'no-store',
          signal,
        });
        if (!response.ok || !response.body) {
          // Cancel the body so the connection is released.
          await response.body?.cancel().catch(() => undefined);
          reason = `the backend answered ${response.status}`;
        } else {
          attempt = 0;
          this.callbacks.state({ kind: 'open' });
          for await (const event of readEventStream(response.body, { signal })) {
            if (event.type !== 'progress') continue;
            let parsed: unknown;
            try {
              parsed = JSON.parse(event.data);
            } catch {
              continue;
            }
            const snapshot = readSnapshot(parsed);
            if (snapshot) this.callbacks.snapshot(snapshot);
          }
        }
      } catch (error) {
        if (signal.aborted) return;
        reason = error instanceof Error ? error.message : String(error);
      }
      if (signal.aborted) return;
      const delays = this.delays();
      const delayMs = Math.max(0, delays[Math.min(attempt, delays.length - 1)] ?? 30_000);
      attempt += 1;
      this.callbacks.state({ kind: 'reconnecting', delayMs, reason });
      await wait(delayMs, signal);
    }
  }
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
