/**
 * The events a plugin dev server (`pluginctl dev`) sends at `/__pluginctl/events` as server-sent
 * events, read by the debug harness page and by a launcher in development mode (decisions 10). One
 * definition of the wire format for the writer (pluginctl) and every reader.
 */
import { isValidPluginId } from '../manifest/plugin-id.js';

/** The path of the event stream on a dev server (and on the harness). */
export const DEV_EVENTS_PATH = '/__pluginctl/events';

/** A build of one plugin started (after the 400 ms quiet period that follows a change). */
export interface DevBuildingEvent {
  readonly type: 'building';
  readonly pluginId: string;
  /** ISO 8601 time the build started. */
  readonly at: string;
}

/** A build succeeded (or a plugin without a build changed): its frame should be replaced. */
export interface DevRebuiltEvent {
  readonly type: 'rebuilt';
  readonly pluginId: string;
  /** ISO 8601 time the build finished. */
  readonly at: string;
  /** How long the build ran, in milliseconds (0 for a plugin without a build). */
  readonly durationMs: number;
}

/** A build failed: the running version stays, and `output` (the build's last output) says why. */
export interface DevBuildFailedEvent {
  readonly type: 'build-failed';
  readonly pluginId: string;
  /** ISO 8601 time the build finished. */
  readonly at: string;
  /** The end of the build's combined stdout and stderr (at most {@link DEV_BUILD_OUTPUT_LIMIT} characters). */
  readonly output: string;
}

/** Sent once when a client connects: the plugins this server serves. */
export interface DevHelloEvent {
  readonly type: 'hello';
  readonly pluginIds: readonly string[];
}

/** Every event of a dev server's stream. */
export type DevServerEvent = DevHelloEvent | DevBuildingEvent | DevRebuiltEvent | DevBuildFailedEvent;

/** The most build output an event carries: the end of the output, where compilers put the error. */
export const DEV_BUILD_OUTPUT_LIMIT = 8_000;

/** The SSE `event` field and `data` text of one event, for `formatServerSentEvent`. */
export function encodeDevServerEvent(event: DevServerEvent): { readonly type: DevServerEvent['type']; readonly data: string } {
  const { type, ...rest } = event;
  return { type, data: JSON.stringify(rest) };
}

/**
 * Reads one received event (its SSE `event` type and `data`). Returns `undefined` for anything that
 * is not a well-formed dev server event: the stream comes from another local process, so it is
 * checked like any input.
 */
export function decodeDevServerEvent(type: string, data: string): DevServerEvent | undefined {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const fields = value as Record<string, unknown>;
  if (type === 'hello') {
    const ids = fields.pluginIds;
    if (!Array.isArray(ids) || !ids.every((id): id is string => typeof id === 'string' && isValidPluginId(id))) return undefined;
    return { type, pluginIds: ids };
  }
  const { pluginId, at } = fields;
  if (typeof pluginId !== 'string' || !isValidPluginId(pluginId) || typeof at !== 'string') return undefined;
  switch (type) {
    case 'building':
      return { type, pluginId, at };
    case 'rebuilt':
      return typeof fields.durationMs === 'number' && fields.durationMs >= 0 ? { type, pluginId, at, durationMs: fields.durationMs } : undefined;
    case 'build-failed':
      return typeof fields.output === 'string' ? { type, pluginId, at, output: fields.output.slice(-DEV_BUILD_OUTPUT_LIMIT) } : undefined;
    default:
      return undefined;
  }
}
