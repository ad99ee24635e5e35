/** Running plugin callbacks (listeners, menu actions, stream handlers) without letting them break the runtime. */

// Captured at start-up so a plugin replacing the global cannot swallow its own errors through us.
const enqueue = globalThis.queueMicrotask.bind(globalThis);

/**
 * Calls `fn`. Whatever it throws is rethrown in a microtask of its own: the runtime's caller
 * carries on, while the browser still reports the error as uncaught (console, `error` event,
 * and so the error reporter), exactly as if the plugin had thrown it from an event listener.
 * A returned promise that rejects is left alone: it becomes an `unhandledrejection` the same way.
 */
export function callIsolated(fn: () => unknown): void {
  try {
    fn();
  } catch (error) {
    enqueue(() => {
      throw error;
    });
  }
}
