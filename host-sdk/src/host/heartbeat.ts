import type { GuestMethods } from '../core/bridge/protocol.js';
import type { PluginRuntimeState } from './host-services.js';
import { withTimeout } from './with-timeout.js';

/** The plugin a heartbeat watches: its frame's `ping`, and the state the heartbeat flips. */
export interface WatchedPlugin {
  readonly guest: Pick<GuestMethods, 'ping'>;
  state: PluginRuntimeState;
}

/** Options of {@link startHeartbeat}. */
export interface HeartbeatOptions {
  /** How often the frame is pinged, in milliseconds. */
  readonly intervalMs: number;
  /** How long a ping may take before the frame counts as not answering. */
  readonly timeoutMs: number;
  /** False once the plugin was stopped: a late failed ping then changes nothing. */
  isCurrent(): boolean;
  /** The frame stopped answering (called once per episode). */
  unresponsive(): void;
  /** A frame that was not answering answers again. */
  responsive(): void;
}

/**
 * Pings a plugin's frame at an interval and marks it `unresponsive` when a ping takes too long,
 * `active` again when it answers. One ping at a time: a frame stuck in a loop is not sent a pile
 * of pings it would answer all at once.
 *
 * @returns the function that stops the heartbeat.
 */
export function startHeartbeat(plugin: WatchedPlugin, options: HeartbeatOptions): () => void {
  let waiting = false;
  const timer = setInterval(() => {
    if (waiting) return;
    waiting = true;
    withTimeout(plugin.guest.ping(), options.timeoutMs, 'no answer')
      .then(() => {
        if (plugin.state === 'unresponsive') {
          plugin.state = 'active';
          options.responsive();
        }
      })
      .catch(() => {
        if (plugin.state !== 'unresponsive' && options.isCurrent()) {
          plugin.state = 'unresponsive';
          options.unresponsive();
        }
      })
      .finally(() => {
        waiting = false;
      });
  }, options.intervalMs);
  return () => clearInterval(timer);
}
