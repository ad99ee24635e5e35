/**
 * The host's record of the event streams plugins opened (`proxyFetchStream`): how a stream is
 * keyed, and how its owner aborts it. Loaded at start, unlike the network methods that open them.
 */
import type { HostServices } from '../host/host-services.js';

/** The key of a plugin's stream: by owner too, so a plugin choosing another's request id addresses nothing of theirs. */
export function streamKey(pluginId: string, requestId: string): string {
  return `${pluginId}\n${requestId}`;
}

/** Aborts a stream the caller started (`GuestMethods` abort message); another plugin's id does nothing. */
export function abortStream(services: HostServices, pluginId: string, requestId: unknown): void {
  if (typeof requestId !== 'string') return;
  const key = streamKey(pluginId, requestId);
  const controller = services.streams.get(pluginId, key);
  if (!controller) return;
  controller.abort();
  services.streams.delete(key);
}
