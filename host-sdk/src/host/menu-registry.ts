import type { HostMenuItem, PluginUiAdapter } from './ui-adapter.js';

/** Sidebar items per plugin, kept in step with the UI adapter. */
export class MenuRegistry {
  private readonly items = new Map<string, HostMenuItem[]>();

  constructor(private readonly ui: PluginUiAdapter) {}

  add(item: HostMenuItem): void {
    const list = this.items.get(item.pluginId) ?? [];
    const existing = list.findIndex((other) => other.id === item.id);
    if (existing !== -1) {
      this.ui.removeMenuItem(item.pluginId, item.id);
      list.splice(existing, 1);
    }
    list.push(item);
    this.items.set(item.pluginId, list);
    this.ui.addMenuItem(item);
  }

  /** Items of a plugin (contributed and dynamic). */
  of(pluginId: string): readonly HostMenuItem[] {
    return [...(this.items.get(pluginId) ?? [])];
  }

  /** Removes items of `pluginId`: only the dynamic ones, or all (`everything`) on full unload. */
  remove(pluginId: string, which: 'dynamic' | 'everything'): void {
    const list = this.items.get(pluginId) ?? [];
    const keep: HostMenuItem[] = [];
    for (const item of list) {
      if (which === 'everything' || item.dynamic) this.ui.removeMenuItem(pluginId, item.id);
      else keep.push(item);
    }
    this.items.set(pluginId, keep);
  }
}
