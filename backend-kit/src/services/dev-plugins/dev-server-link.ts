import { delayUnlessAborted } from '@plughost/host-sdk/core';
import {
  DEV_EVENTS_PATH,
  type DevBuildFailedEvent,
  type DevBuildingEvent,
  type DevHelloEvent,
  type DevRebuiltEvent,
  decodeDevServerEvent,
  readEventStream,
} from '@plughost/host-sdk/core';
import { requestLoopback } from './loopback-request.js';

/** A build event of a dev server: what the launcher relays to its page. */
export type DevBuildEvent = DevBuildingEvent | DevRebuiltEvent | DevBuildFailedEvent;

/** Why a link is not connected: the dev server is not there, or answers without an event stream. */
export type DevServerLinkDown = { readonly kind: 'unreachable' | 'refused'; readonly reason: string };

/** What a {@link DevServerLink} reports. */
export interface DevServerLinkCallbacks {
  /** The stream is open and the server said which plugins it serves. */
  connected(hello: DevHelloEvent): void;
  /** A build event arrived. */
  event(event: DevBuildEvent): void;
  /** An attempt failed or the stream ended; the link tries again after a delay. */
  disconnected(down: DevServerLinkDown): void;
}

/** Options of {@link DevServerLink}. */
export interface DevServerLinkOptions {
  /** Delays before the 1st, 2nd, ... reconnection; the last one repeats. */
  readonly reconnectDelaysMs?: readonly number[];
  /** Time for the stream's response head (default 5000 ms); the stream itself has no time limit. */
  readonly connectTimeoutMs?: number;
}

/** Short first delays: a dev server restarting comes back within a second or two. */
export const DEV_RECONNECT_DELAYS_MS: readonly number[] = [250, 500, 1000, 2000, 5000];

// Build output is at most 8000 characters, a few times that once JSON-escaped.
const MAX_EVENT_BYTES = 256 * 1024;

/**
 * Follows one dev server's rebuild notices (`GET /__pluginctl/events`, server-sent events decoded
 * with core's `decodeDevServerEvent`), reconnecting with a growing delay whenever the stream
 * cannot be opened or ends. Events that do not decode are ignored: the stream comes from another
 * local process and is checked like any input.
 */
export class DevServerLink {
  readonly #controller = new AbortController();
  readonly #url: URL;
  readonly #delays: readonly number[];
  readonly #connectTimeoutMs: number;

  constructor(
    baseUrl: string,
    private readonly callbacks: DevServerLinkCallbacks,
    options: DevServerLinkOptions = {},
  ) {
    // The events live at the server's root, whatever path the plugin's files are under.
    this.#url = new URL(DEV_EVENTS_PATH, baseUrl);
    this.#delays = options.reconnectDelaysMs ?? DEV_RECONNECT_DELAYS_MS;
    this.#connectTimeoutMs = options.connectTimeoutMs ?? 5000;
  }

  start(): void {
    void this.#run();
  }

  close(): void {
    this.#controller.abort();
  }

  async #run(): Promise<void> {
    const { signal } = this.#controller;
    let attempt = 0;
    while (!signal.aborted) {
      const down = await this.#follow(() => {
        attempt = 0;
      });
      if (signal.aborted) return;
      this.callbacks.disconnected(down);
      const delay = this.#delays[Math.min(attempt, this.#delays.length - 1)] ?? 5000;
      attempt += 1;
      await delayUnlessAborted(delay, signal);
    }
  }

  /** One connection: resolves with why it ended. */
  async #follow(opened: () => void): Promise<DevServerLinkDown> {
    const request = new AbortController();
    const stop = (): void => request.abort();
    this.#controller.signal.addEventListener('abort', stop, { once: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, this.#connectTimeoutMs);
    try {
      const response = await requestLoopback(this.#url, { accept: 'text/event-stream', signal: request.signal });
      clearTimeout(timer);
      if (response.statusCode !== 200) {
        response.destroy();
        return { kind: 'refused', reason: `${this.#url.href} answered ${response.statusCode ?? 'nothing'} instead of an event stream` };
      }
      for await (const received of readEventStream(response, { signal: request.signal, maxEventBytes: MAX_EVENT_BYTES })) {
        const event = decodeDevServerEvent(received.type, received.data);
        if (event === undefined) continue;
        if (event.type === 'hello') {
          opened();
          this.callbacks.connected(event);
        } else {
          this.callbacks.event(event);
        }
      }
      return { kind: 'unreachable', reason: `the event stream of ${this.#url.origin} ended` };
    } catch (error) {
      if (timedOut) return { kind: 'unreachable', reason: `${this.#url.origin} did not answer within ${this.#connectTimeoutMs / 1000} s` };
      const reason = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
      return { kind: 'unreachable', reason: `${this.#url.origin} is not reachable (${reason})` };
    } finally {
      clearTimeout(timer);
      this.#controller.signal.removeEventListener('abort', stop);
      request.abort();
    }
  }
}
