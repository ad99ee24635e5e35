import { DEV_EVENTS_PATH, decodeDevServerEvent, type DevServerEvent } from '@plughost/host-sdk/core';

const EVENT_TYPES: readonly DevServerEvent['type'][] = ['hello', 'building', 'rebuilt', 'build-failed'];

/**
 * Listens to the harness's build events (`/__pluginctl/events`, same origin, no credentials).
 * `EventSource` reconnects by itself when the harness restarts; the server then sends `hello`
 * again. Events that do not decode are ignored: the stream is input like any other.
 *
 * @returns a function that stops listening.
 */
export function listenToDevEvents(onEvent: (event: DevServerEvent) => void, url = DEV_EVENTS_PATH): () => void {
  const source = new EventSource(url);
  const listener = (message: Event): void => {
    const { type, data } = message as MessageEvent<string>;
    const event = decodeDevServerEvent(type, data);
    if (event) onEvent(event);
  };
  for (const type of EVENT_TYPES) source.addEventListener(type, listener);
  return () => source.close();
}
