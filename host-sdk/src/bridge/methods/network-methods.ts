import { proxyFailed, toWireError } from '../../core/bridge/bridge-errors.js';
import { readEventStream } from '../../core/event-stream/read-event-stream.js';
import type { GuestMethods, StreamEvent } from '../../core/bridge/protocol.js';
import { BackendClient, BridgeFailure } from '../../host/backend-client.js';
import type { HostServices } from '../../host/host-services.js';
import type { BridgeHandler } from '../lazy-handlers.js';
import { streamKey } from '../plugin-streams.js';
import { objectArgument, stringArgument } from './arguments.js';

/** A proxy failure: `Proxy failed: <status>` with the backend's code. */
async function proxyFailure(response: Response): Promise<BridgeFailure> {
  const failure = await BackendClient.failureOf(response);
  return new BridgeFailure(proxyFailed(response.status, failure.wire.code));
}

/** Pumps one proxied event stream into the guest; never throws. */
async function pumpStream(
  services: HostServices,
  guest: GuestMethods,
  pluginId: string,
  requestId: string,
  request: Record<string, unknown>,
  controller: AbortController,
): Promise<void> {
  const send = (event: StreamEvent): Promise<void> =>
    controller.signal.aborted ? Promise.resolve() : guest.streamEvent(requestId, event).catch(() => undefined);
  try {
    const response = await services.backend.request('/api/plugins/proxy', { json: { ...request, stream: true }, pluginId, signal: controller.signal });
    if (!response.ok || response.body === null) {
      await send({ kind: 'error', error: (await proxyFailure(response)).wire });
      return;
    }
    for await (const event of readEventStream(response.body, { signal: controller.signal })) {
      if (event.type === 'error') {
        // The proxy's own failure event after the stream started (see docs/backend.md, "CORS proxy").
        let wire: { message: string; code?: string };
        try {
          const parsed = JSON.parse(event.data) as { code?: unknown; message?: unknown };
          wire = {
            message: typeof parsed.message === 'string' ? parsed.message : 'Proxy failed',
            ...(typeof parsed.code === 'string' ? { code: parsed.code } : {}),
          };
        } catch {
          wire = { message: 'Proxy failed' };
        }
        await send({ kind: 'error', error: wire });
        return;
      }
      await send({ kind: 'chunk', data: event.data });
    }
    await send({ kind: 'end' });
  } catch (error) {
    if (!controller.signal.aborted) await send({ kind: 'error', error: toWireError(error) });
  } finally {
    services.streams.delete(streamKey(pluginId, requestId));
  }
}

/** `proxyFetch` and `proxyFetchStream`: the backend's SSRF-guarded proxy. */
export const handlers = {
  proxyFetch: async ({ plugin, services }, args) => {
    const request = objectArgument('proxyFetch', args, 0, 'request');
    const response = await services.backend.request('/api/plugins/proxy', { json: { ...request, stream: false }, pluginId: plugin.id });
    if (!response.ok) throw await proxyFailure(response);
    return response.json();
  },
  proxyFetchStream: ({ plugin, services }, args) => {
    const requestId = stringArgument('proxyFetchStream', args, 0, 'requestId');
    const request = objectArgument('proxyFetchStream', args, 1, 'request');
    const guest = services.active(plugin.id)?.guest;
    if (!guest) throw new BridgeFailure({ message: 'proxyFetchStream: the plugin is not active' });
    const controller = new AbortController();
    // Keyed by owner too: a plugin choosing another's request id addresses nothing of theirs.
    services.streams.add(plugin.id, controller, streamKey(plugin.id, requestId));
    void pumpStream(services, guest, plugin.id, requestId, request, controller);
    return null;
  },
} satisfies Readonly<Record<string, BridgeHandler>>;
