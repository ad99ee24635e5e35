/**
 * The penpal connection from a plugin frame to the launcher window, the `hello` that opens it, and
 * the call port its answer hands over.
 */
import { connect, WindowMessenger } from 'penpal';
import { BRIDGE_PROTOCOL_VERSION, type GuestMethods, type HostMethods, type PortMethodName } from '../core/bridge/protocol.js';
import type { GuestIdentity } from './plugin-api.js';
import { bridgeError } from './bridge-error.js';
import { callsOverPort } from './call-port.js';
import { isRecord } from './guards.js';
import { unwrapResult } from './wire-result.js';

/** penpal wants an index-signature shape; a mapped copy of an interface is one. */
type MethodShape<T> = { [K in keyof T]: T[K] };

/**
 * Calls one of the host's methods after `hello` (over the call port in a frame, directly for an
 * inline plugin): resolves with the value of its answer, or rejects with the rebuilt error. The
 * methods that answer nothing (`abortStream`, the reports) resolve with `null`.
 */
export type HostCall = (...call: PortCallArguments) => Promise<unknown>;

/** `[method, ...args]` of one host method of the call port. */
type PortCallArguments = { [M in PortMethodName]: [method: M, ...args: Parameters<HostMethods[M]>] }[PortMethodName];

/** {@link HostCall} that waits for the host to answer `hello` first; every call to the host goes through it. */
export type HostAccess = HostCall;

/** An open (or opening) connection to the host. */
export interface HostSession {
  /** Calls the host once `hello` succeeded; rejects when the host refused the frame. */
  readonly host: HostAccess;
  /** Who this frame is, from the answer to `hello`. */
  readonly identity: Promise<GuestIdentity>;
}

/**
 * Connects to `window.parent` at once and says `hello` first, before any other call. Nothing
 * times out: the host connects when it is ready, and calls made before wait.
 */
export function openHostSession(methods: GuestMethods, runtimeVersion: string): HostSession {
  let call: HostCall;
  const identity = (async (): Promise<GuestIdentity> => {
    if (window.parent === window) throw bridgeError('The guest runtime only works inside a plugin frame');
    // The frame's origin is opaque ('null') and it cannot know the launcher's origin, so penpal
    // must allow any. Messages are still bound to `window.parent`: penpal drops anything whose
    // `source` is another window, and after the handshake everything moves to a MessagePort.
    const remote = await connect<MethodShape<Pick<HostMethods, 'hello'>>>({
      messenger: new WindowMessenger({ remoteWindow: window.parent, allowedOrigins: ['*'] }),
      // No prototype, so inherited members (`constructor`, `__proto__`, `toString`) are not
      // callable from the host: penpal walks this object for method paths.
      methods: Object.assign(Object.create(null), methods) as MethodShape<GuestMethods>,
    }).promise;
    const answer = unwrapResult(await remote.hello({ protocolVersion: BRIDGE_PROTOCOL_VERSION, runtimeVersion }));
    if (!isRecord(answer) || typeof answer.pluginId !== 'string' || !(answer.port instanceof MessagePort)) {
      throw bridgeError('The host answered hello without a plugin id');
    }
    // Every later call travels on the call port the answer handed over.
    call = callsOverPort(answer.port);
    const { pluginId, apiBase } = answer;
    return Object.freeze({ pluginId, apiBase: typeof apiBase === 'string' ? apiBase : null });
  })();
  // Internal promise: a refused connection must not surface as an unhandled rejection (which
  // the error reporter would try to send over that very connection).
  identity.catch(() => undefined);
  return { host: (...args) => identity.then(() => call(...args)), identity };
}
