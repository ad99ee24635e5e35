import { BackendClient } from '../../host/backend-client.js';
import type { BridgeHandler } from '../lazy-handlers.js';
import { badArgument, idSegment, optionalNumber, stringArgument } from './arguments.js';

/** Package uploads through the bridge are bounded like the backend's default package limit. */
const MAX_UPLOAD_BYTES = 256 * 1024 * 1024;

/** `execCommand`, `openUrl`, `getSystemInfo`, `listPlugins`, `uploadPlugin`. */
export const handlers = {
  execCommand: ({ plugin, services }, args) => {
    const command = args[0];
    if (typeof command !== 'string') throw badArgument('execCommand', '"command" must be a string');
    const timeoutMs = optionalNumber('execCommand', args[1], 'timeoutMs');
    return services.backend.json(`/api/plugins/shell/${idSegment(plugin.id)}`, {
      json: { command, ...(timeoutMs !== undefined ? { timeoutMs } : {}) },
      pluginId: plugin.id,
    });
  },
  openUrl: async ({ plugin, services }, args) => {
    await services.backend.json('/api/system/open-url', { json: { url: stringArgument('openUrl', args, 0, 'url') }, pluginId: plugin.id });
    return null;
  },
  getSystemInfo: ({ plugin, services }) => services.backend.json('/api/systeminfo', { pluginId: plugin.id }),
  listPlugins: async ({ plugin, services }) => {
    const plugins = await services.backend.json<{ id: string; name: string; version: string; status: string }[]>('/api/plugins/', { pluginId: plugin.id });
    return plugins.map(({ id, name, version, status }) => ({ id, name, version, status }));
  },
  uploadPlugin: async ({ plugin, services }, args) => {
    const fileData = args[0];
    const fileName = stringArgument('uploadPlugin', args, 1, 'fileName');
    const bytes =
      fileData instanceof Uint8Array
        ? fileData
        : Array.isArray(fileData) && fileData.length <= MAX_UPLOAD_BYTES && fileData.every((byte) => Number.isInteger(byte) && byte >= 0 && byte <= 255)
          ? Uint8Array.from(fileData as number[])
          : undefined;
    if (!bytes) throw badArgument('uploadPlugin', '"fileData" must be an array of bytes');
    const form = new FormData();
    form.append('plugin', new Blob([new Uint8Array(bytes)], { type: 'application/zip' }), fileName);
    const response = await services.backend.request('/api/plugins/upload', { body: form, pluginId: plugin.id });
    if (!response.ok) throw await BackendClient.failureOf(response);
    return response.json();
  },
} satisfies Readonly<Record<string, BridgeHandler>>;
