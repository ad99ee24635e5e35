import { DEV_EVENTS_PATH, decodeDevServerEvent, type DevServerEvent } from '@plughost/host-sdk/core';

const EVENT_TYPES: readonly DevServerEvent['type'][] = ['hello', 'building', 'rebuilt', 'build-failed'];

/**
 * Where the page's connection to the build events stands: `connecting` at first, `connected`,
 * `reconnecting` after it dropped (the browser tries again by itself), `stopped` when the harness
 * said it is going away (`pluginctl dev` was stopped) and no retry follows.
 */
export type DevEventsConnection = 'connecting' | 'connected' | 'reconnecting' | 'stopped';

/** What {@link listenToDevEvents} reports to. */
export interface DevEventsListener {
  onEvent(event: DevServerEvent): void;
  onConnection(state: DevEventsConnection): void;
}

/**
 * Listens to the harness's build events (`/__pluginctl/events`, same origin, no credentials).
 * `EventSource` reconnects by itself when the connection drops; the server then sends `hello`
 * again. Events that do not decode are ignored: the stream is input like any other.
 *
 * @returns a function that stops listening.
 */
export function listenToDevEvents(listener: DevEventsListener, url = DEV_EVENTS_PATH): () => void {
  const source = new EventSource(url);
  listener.onConnection('connecting');
  const onMessage = (message: Event): void => {
    const { type, data } = message as MessageEvent<string>;
    const event = decodeDevServerEvent(type, data);
    if (event) listener.onEvent(event);
  };
  for (const type of EVENT_TYPES) source.addEventListener(type, onMessage);
  source.addEventListener('open', () => listener.onConnection('connected'));
  // CLOSED after an error: the server answered without a stream (204 when it is closing).
  source.addEventListener('error', () => listener.onConnection(source.readyState === EventSource.CLOSED ? 'stopped' : 'reconnecting'));
  return () => source.close();
}
