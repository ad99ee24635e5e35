import { openUrlFailed } from '../../core/bridge/bridge-errors.js';
import { BackendClient, BridgeFailure } from '../../host/backend-client.js';
import type { BridgeHandler } from '../lazy-handlers.js';
import { badArgument, idSegment, optionalNumber, stringArgument } from './arguments.js';

/**
 * Why `openUrl` failed, as the plugin receives it. The backend's 400 (not an http or https URL)
 * keeps the specification's `Backend error: 400`; any other refusal, and no answer at all, say that
 * the URL could not be opened.
 */
function openFailure(error: unknown): BridgeFailure {
  if (!(error instanceof BridgeFailure)) {
    return new BridgeFailure(
      openUrlFailed('the launcher backend did not answer', undefined, { reason: error instanceof Error ? error.message : String(error) }),
    );
  }
  const status = Number(/^Backend error: (\d+)$/.exec(error.wire.message)?.[1]);
  if (status === 400) return error;
  return new BridgeFailure(openUrlFailed(`the launcher answered ${status}`, error.wire.code, { ...error.wire.details, status }));
}

/** A commit hash: 7 to 64 hex digits and not all zeros (a placeholder is not a commit). */
const COMMIT = /^(?!0+$)[0-9a-f]{7,64}$/i;

/**
 * The system information a plugin receives: `GitCommit` only when it is a commit hash. A backend
 * that does not know its commit may send an empty string or a placeholder; the field is left out
 * instead, so plugins never show a commit that is not one.
 */
function systemInfoOf(info: unknown): unknown {
  if (typeof info !== 'object' || info === null || Array.isArray(info)) return info;
  const { GitCommit, ...rest } = info as Record<string, unknown>;
  return typeof GitCommit === 'string' && COMMIT.test(GitCommit) ? info : rest;
}

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
    const url = stringArgument('openUrl', args, 0, 'url');
    let answer: unknown;
    try {
      answer = await services.backend.json('/api/system/open-url', { json: { url }, pluginId: plugin.id });
    } catch (error) {
      throw openFailure(error);
    }
    // Only `{opened: true}` means the opener started; anything else must not pass for success.
    if (typeof answer !== 'object' || answer === null || (answer as { opened?: unknown }).opened !== true) {
      throw new BridgeFailure(openUrlFailed('the launcher did not confirm that it opened it'));
    }
    return null;
  },
  getSystemInfo: async ({ plugin, services }) => systemInfoOf(await services.backend.json('/api/systeminfo', { pluginId: plugin.id })),
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
