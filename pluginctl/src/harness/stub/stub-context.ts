/**
 * What the stub's routes share: the plugins of `plugins-dev/`, the in-memory state, the mock file
 * and the log.
 */
import type { IncomingMessage } from 'node:http';
import { type LauncherSettings, PluginHostError, isValidPluginId } from '@plughost/host-sdk/core';
import type { CallerId, StubDownloads } from './downloads.js';
import type { StubInstances } from './instances.js';
import type { MockOverrides } from './mock-overrides.js';
import type { DevPlugin, PluginCatalog } from './plugin-catalog.js';
import type { MemoryPluginData } from './plugin-data.js';
import type { PluginStates } from './plugin-states.js';
import type { VirtualFiles } from './virtual-files.js';

/** The stub's state, handed to every route group. */
export interface StubContext {
  readonly catalog: PluginCatalog;
  readonly states: PluginStates;
  readonly data: MemoryPluginData;
  readonly files: VirtualFiles;
  readonly instances: StubInstances;
  readonly downloads: StubDownloads;
  readonly mock: MockOverrides;
  /** `launcher-settings.json` of the harness, in memory. */
  launcherSettings: LauncherSettings;
  readonly log: (line: string) => void;
}

/** The harness plugin `id`, or 404 `PLUGIN_NOT_FOUND` as the backend answers for a plugin that is not installed. */
export async function requirePlugin(context: StubContext, id: string): Promise<DevPlugin> {
  const plugin = await context.catalog.find(id);
  if (!plugin) throw new PluginHostError('PLUGIN_NOT_FOUND', `Plugin ${id} is not installed (no valid plugins-dev/${id}/manifest.json)`, { pluginId: id });
  return plugin;
}

/**
 * The caller of a route without a plugin id in its path (decisions section 2): the plugin named by
 * `X-Plugin-Id`, which must be a harness plugin, or the launcher (`null`) without the header.
 */
export async function callerOf(context: StubContext, incoming: IncomingMessage): Promise<CallerId> {
  const header = incoming.headers['x-plugin-id'];
  if (header === undefined) return null;
  const id = Array.isArray(header) ? '' : header;
  if (!isValidPluginId(id)) throw new PluginHostError('INVALID_ARGUMENT', 'X-Plugin-Id must be one plugin id');
  await requirePlugin(context, id);
  return id;
}
