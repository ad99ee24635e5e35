/**
 * The shared window's `__PLUGIN_API__` of inline plugins: which plugin's API it is. Loaded at
 * start (deactivation releases it), unlike the inline guest runtime that fills it.
 */
import type { PluginApi } from '../guest/plugin-api.js';

/** The API of the inline plugin that owns a window's `__PLUGIN_API__`. */
export interface InlineApiSlot {
  current: PluginApi | undefined;
  owner?: string;
}

/** The API objects of inline plugins per window, and which one `__PLUGIN_API__` currently is. */
const windows = new WeakMap<Window, InlineApiSlot>();

/**
 * Defines the shared window's `__PLUGIN_API__` once, as a getter the page cannot replace, whose
 * value is the API of the owning plugin: the last inline plugin loaded (specification).
 */
export function ownerSlot(win: Window): InlineApiSlot {
  let slot = windows.get(win);
  if (!slot) {
    const created: InlineApiSlot = { current: undefined };
    Object.defineProperty(win, '__PLUGIN_API__', { get: () => created.current, enumerable: false, configurable: false });
    windows.set(win, created);
    slot = created;
  }
  return slot;
}

/** After `pluginId` is deactivated the shared window's `__PLUGIN_API__` no longer acts for it. */
export function releaseInlineApi(win: Window, pluginId: string): void {
  const slot = windows.get(win);
  if (slot?.owner !== pluginId) return;
  slot.current = undefined;
  delete slot.owner;
}
