/** The penpal connection from a plugin frame to the launcher window, and the `hello` that opens it. */
import { connect, WindowMessenger, type RemoteProxy } from 'penpal';
import { BRIDGE_PROTOCOL_VERSION, type GuestMethods, type HostMethods } from '../core/bridge/protocol.js';
import type { GuestIdentity } from './plugin-api.js';
import { bridgeError } from './bridge-error.js';
import { isRecord } from './guards.js';
import { unwrapResult } from './wire-result.js';

/** penpal wants an index-signature shape; a mapped copy of an interface is one. */
type MethodShape<T> = { [K in keyof T]: T[K] };

/** The host's methods as penpal exposes them in the frame. */
export type HostProxy = RemoteProxy<MethodShape<HostMethods>>;

/** Gives the host once it has answered `hello`; every call to the host goes through it. */
export type HostAccess = () => Promise<HostProxy>;

/** An open (or opening) connection to the host. */
export interface HostSession {
  /** Resolves with the host after `hello` succeeded; rejects when the host refused the frame. */
  readonly host: HostAccess;
  /** Who this frame is, from the answer to `hello`. */
  readonly identity: Promise<GuestIdentity>;
}

/**
 * Connects to `window.parent` at once and says `hello` first, before any other call. Nothing
 * times out: the host connects when it is ready, and calls made before wait.
 */
export function openHostSession(methods: GuestMethods, runtimeVersion: string): HostSession {
  const connected = (async () => {
    if (window.parent === window) throw bridgeError('The guest runtime only works inside a plugin frame');
    // The frame's origin is opaque ('null') and it cannot know the launcher's origin, so penpal
    // must allow any. Messages are still bound to `window.parent`: penpal drops anything whose
    // `source` is another window, and after the handshake everything moves to a MessagePort.
    return connect<MethodShape<HostMethods>>({
      messenger: new WindowMessenger({ remoteWindow: window.parent, allowedOrigins: ['*'] }),
      // No prototype, so inherited members (`constructor`, `__proto__`, `toString`) are not
      // callable from the host: penpal walks this object for method paths.
      methods: Object.assign(Object.create(null), methods) as MethodShape<GuestMethods>,
    }).promise;
  })();
  const identity = connected.then(async (host): Promise<GuestIdentity> => {
    const answer = unwrapResult(await host.hello({ protocolVersion: BRIDGE_PROTOCOL_VERSION, runtimeVersion }));
    if (!isRecord(answer) || typeof answer.pluginId !== 'string') throw bridgeError('The host answered hello without a plugin id');
    const { pluginId, apiBase } = answer;
    return Object.freeze({ pluginId, apiBase: typeof apiBase === 'string' ? apiBase : null });
  });
  const host = identity.then(() => connected);
  // Internal promises: a refused connection must not surface as an unhandled rejection (which
  // the error reporter would try to send over that very connection).
  host.catch(() => undefined);
  identity.catch(() => undefined);
  return { host: () => host, identity };
}
