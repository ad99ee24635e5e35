/**
 * The status of each harness plugin, with the backend's rules (decisions section 4): a plugin is
 * `active` when enabled and its manifest has `entry.frontend`, `installed` when enabled without a
 * page, `disabled` when switched off. Switching (`PUT /api/plugins/<id>/state`) takes effect at
 * the next `POST /api/launcher/restart`, until which the list says `restartPending`. Everything is
 * in memory: the harness writes nothing.
 */
import type { PluginInfo, PluginStatus } from '@plughost/host-sdk/core';
import type { DevPlugin } from './plugin-catalog.js';

/** The answer of `PUT /api/plugins/<id>/state`. */
export interface PluginStateChange {
  readonly id: string;
  readonly enabled: boolean;
  readonly status: PluginStatus;
  readonly restartRequired: true;
}

/** Statuses of the harness plugins. */
export class PluginStates {
  /** `pluginStates` of the mock file: the status a plugin starts with. */
  readonly #mocked: Readonly<Record<string, PluginStatus>>;
  /** What the user chose since the start. */
  readonly #chosen = new Map<string, boolean>();
  /** What the last restart applied. */
  readonly #applied = new Map<string, boolean>();

  constructor(mocked: Readonly<Record<string, PluginStatus>> = {}) {
    this.#mocked = mocked;
  }

  #appliedEnabled(id: string): boolean {
    const mocked = Object.hasOwn(this.#mocked, id) ? this.#mocked[id] : undefined;
    return this.#applied.get(id) ?? (mocked === undefined ? true : mocked === 'active');
  }

  /** The status the list reports: the mocked one until a restart applies a choice. */
  statusOf(plugin: DevPlugin): PluginStatus {
    const mocked = Object.hasOwn(this.#mocked, plugin.id) ? this.#mocked[plugin.id] : undefined;
    if (mocked !== undefined && !this.#applied.has(plugin.id)) return mocked;
    if (!this.#appliedEnabled(plugin.id)) return 'disabled';
    return plugin.manifest.entry?.frontend !== undefined ? 'active' : 'installed';
  }

  /** The plugin's PluginInfo, as `GET /api/plugins/` lists it. */
  infoOf(plugin: DevPlugin): PluginInfo {
    const applied = this.#appliedEnabled(plugin.id);
    const enabled = this.#chosen.get(plugin.id) ?? applied;
    return {
      id: plugin.id,
      name: plugin.manifest.name,
      version: plugin.manifest.version,
      status: this.statusOf(plugin),
      enabled,
      hasRollback: false,
      ...(enabled !== applied ? { restartPending: true as const } : {}),
    };
  }

  /** Records the user's choice; the status changes at the next restart. */
  choose(plugin: DevPlugin, enabled: boolean): PluginStateChange {
    this.#chosen.set(plugin.id, enabled);
    return { id: plugin.id, enabled, status: this.statusOf(plugin), restartRequired: true };
  }

  /** A launcher restart: every choice made takes effect. */
  restart(): void {
    for (const [id, enabled] of this.#chosen) this.#applied.set(id, enabled);
  }
}
