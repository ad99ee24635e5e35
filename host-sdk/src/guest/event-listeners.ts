/** `on` / `off` / `deliverEvent`: events the launcher forwards to the frame (`file-drop`, ...). */
import type { PluginEventListener } from './plugin-api.js';
import { requireArgument } from './bridge-error.js';
import type { CaughtErrors } from './error-reporter.js';
import { isName } from './guards.js';
import { callIsolated } from './isolated-call.js';

/** The listeners of this frame, by event name. */
export interface EventListeners {
  /** `__PLUGIN_API__.on`; returns the matching `off`. */
  on(name: string, listener: PluginEventListener): () => void;
  /** `__PLUGIN_API__.off`. */
  off(name: string, listener: PluginEventListener): void;
  /** `GuestMethods.deliverEvent`: calls every listener of `name`, each isolated from the others. */
  deliver(name: unknown, payload: unknown): Promise<void>;
}

/** Listeners kept only in this closure; what they throw goes to `errors`. */
export function createEventListeners(errors: CaughtErrors): EventListeners {
  const listeners = new Map<string, Set<PluginEventListener>>();

  const off = (name: string, listener: PluginEventListener): void => {
    const set = listeners.get(name);
    if (set?.delete(listener) && set.size === 0) listeners.delete(name);
  };

  return {
    on(name, listener) {
      requireArgument(isName(name), 'on() needs an event name');
      requireArgument(typeof listener === 'function', 'on() needs a listener function');
      listeners.set(name, (listeners.get(name) ?? new Set()).add(listener));
      return () => off(name, listener);
    },
    off(name, listener) {
      if (isName(name)) off(name, listener);
    },
    async deliver(name, payload) {
      if (!isName(name)) return;
      // A copy: a listener that adds or removes listeners does not change this delivery.
      for (const listener of [...(listeners.get(name) ?? [])]) callIsolated(() => listener(payload), errors, `on('${name}') listener`);
    },
  };
}
