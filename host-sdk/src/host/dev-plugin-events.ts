import { delayUnlessAborted } from '../core/registry-protocol/source-timer.js';
import { decodeDevServerEvent, type DevBuildFailedEvent, type DevBuildingEvent, type DevRebuiltEvent } from '../core/dev-server/dev-events.js';
import { readEventStream } from '../core/event-stream/read-event-stream.js';
import { BackendClient } from './backend-client.js';

/** The dev plugins changed: one appeared or went, became loadable or not, or its manifest changed. */
export interface DevListChangedEvent {
  readonly type: 'list-changed';
  /** The dev plugins' ids now. */
  readonly pluginIds: readonly string[];
}

/**
 * An event of the local backend's `GET /api/plugins/dev/events` (development mode): a dev
 * server's `building`, `rebuilt` (replace the plugin's frame with a new one: `PluginHost.reload`)
 * and `build-failed` (show `output`; the running frame stays), and `list-changed` (read the plugin
 * list again).
 */
export type DevPluginEvent = DevBuildingEvent | DevRebuiltEvent | DevBuildFailedEvent | DevListChangedEvent;

/**
 * Where the subscription stands: `connecting` (first attempt), `open` (`reconnected` is true when
 * it was open before: events may have been missed, so read the plugin list again), `reconnecting`
 * (after a delay, with why), `off` (the backend has dev plugins off, a release build: it never
 * tries again), `closed`.
 */
export type DevPluginEventsState =
  | { readonly kind: 'connecting' }
  | { readonly kind: 'open'; readonly reconnected: boolean }
  | { readonly kind: 'reconnecting'; readonly delayMs: number; readonly reason: string }
  | { readonly kind: 'off' }
  | { readonly kind: 'closed' };

/** Options of {@link followDevPlugins}. */
export interface FollowDevPluginsOptions {
  /** The local backend's origin (as for `PluginHost`). */
  readonly baseUrl: string;
  /** The backend's bearer token; it stays in the launcher page. */
  readonly token: string;
  /** Called with every event, in the order the backend sent them. */
  readonly onEvent: (event: DevPluginEvent) => void;
  /** Called when the subscription's state changes. */
  readonly onState?: (state: DevPluginEventsState) => void;
  /** Delays before the 1st, 2nd, ... reconnection in ms; the last one repeats. Default 500, 1000, 2000, 5000. */
  readonly reconnectDelaysMs?: readonly number[];
  readonly fetch?: typeof fetch;
}

/** A running subscription; `close()` ends it. */
export interface DevPluginEvents {
  close(): void;
}

const DEFAULT_DELAYS_MS: readonly number[] = [500, 1000, 2000, 5000];

/** Decodes one received event; `undefined` for anything else (checked like any input). */
function decodeEvent(type: string, data: string): DevPluginEvent | undefined {
  if (type === 'list-changed') {
    try {
      const value = JSON.parse(data) as { pluginIds?: unknown };
      const ids = value.pluginIds;
      return Array.isArray(ids) && ids.every((id) => typeof id === 'string') ? { type, pluginIds: ids } : undefined;
    } catch {
      return undefined;
    }
  }
  const event = decodeDevServerEvent(type, data);
  return event === undefined || event.type === 'hello' ? undefined : event;
}

/**
 * Follows the rebuild notices of dev plugins for a launcher page in development mode: reads
 * `GET /api/plugins/dev/events` with `fetch` and the bearer token (an `EventSource` cannot send
 * it), decodes each event with core's dev-server decoder, and reconnects with a growing delay when
 * the stream fails or ends. A backend with dev plugins off answers 404: the subscription then
 * reports `off` and stops, so a launcher can call this whatever its mode.
 *
 * @example
 * ```ts
 * const dev = followDevPlugins({
 *   baseUrl, token,
 *   onEvent: (event) => {
 *     if (event.type === 'rebuilt') void host.reload(event.pluginId); // a new frame
 *     if (event.type === 'build-failed') showBuildError(event.pluginId, event.output);
 *     if (event.type === 'list-changed') void refreshPluginList();
 *   },
 * });
 * ```
 */
export function followDevPlugins(options: FollowDevPluginsOptions): DevPluginEvents {
  const controller = new AbortController();
  const { signal } = controller;
  const client = new BackendClient({ baseUrl: options.baseUrl, token: options.token, ...(options.fetch ? { fetch: options.fetch } : {}) });
  const delays = options.reconnectDelaysMs ?? DEFAULT_DELAYS_MS;
  const report = (state: DevPluginEventsState): void => options.onState?.(state);

  async function run(): Promise<void> {
    let attempt = 0;
    let wasOpen = false;
    report({ kind: 'connecting' });
    while (!signal.aborted) {
      let reason = 'the event stream ended';
      try {
        // A 404 is the answer of a backend without dev plugins (release mode), not a failure.
        const response = await client.request('/api/plugins/dev/events', { signal, quiet: [404] });
        if (response.status === 404) {
          await response.body?.cancel().catch(() => undefined);
          report({ kind: 'off' });
          return;
        }
        if (!response.ok || !response.body) {
          await response.body?.cancel().catch(() => undefined);
          reason = `the backend answered ${response.status}`;
        } else {
          attempt = 0;
          report({ kind: 'open', reconnected: wasOpen });
          wasOpen = true;
          for await (const received of readEventStream(response.body, { signal })) {
            const event = decodeEvent(received.type, received.data);
            if (event === undefined) continue;
            try {
              options.onEvent(event);
            } catch (error) {
              // A failing listener must not end the subscription: later events still matter.
              console.error('[plugins] a dev plugin event listener failed', error);
            }
          }
        }
      } catch (error) {
        if (signal.aborted) break;
        reason = error instanceof Error ? error.message : String(error);
      }
      if (signal.aborted) break;
      const delayMs = delays[Math.min(attempt, delays.length - 1)] ?? 5000;
      attempt += 1;
      report({ kind: 'reconnecting', delayMs, reason });
      await delayUnlessAborted(delayMs, signal);
    }
    report({ kind: 'closed' });
  }

  void run();
  return { close: () => controller.abort() };
}
