import { connect, Reply, WindowMessenger, type Connection } from 'penpal';
import { ErrorCode, PluginHostError } from '../core/errors.js';
import type { GuestMethods, HostMethods } from '../core/bridge/protocol.js';
import { createSandboxFrame } from '../frame/sandbox-frame.js';
import { loadOnce } from '../load-once.js';
import { toWireError, unknownMethod } from '../core/bridge/bridge-errors.js';
import type { CallPortTools } from './call-port.js';

/** The host's side of the call port: loaded with the first frame, long before it can say hello. */
const callPort = loadOnce(() => import('./call-port.js'));

const CALL_PORT_TOOLS: CallPortTools = {
  toWireError,
  unknownMethod,
  reply: (answer, transfer) => new Reply(answer, { transferables: [transfer] }),
};

/** One frame's host methods as penpal exposes them, and the call port they hand out. */
export interface CallPortMethods {
  /** Only `hello` (no prototype: penpal walks the object for method paths, and `constructor` is none). */
  readonly methods: { readonly hello: (guest: Parameters<HostMethods['hello']>[0]) => Promise<unknown> };
  /** Closes the frame's call port: the frame is gone, or its connection was destroyed. */
  close(): void;
}

/**
 * penpal carries only `hello`; its answer hands the frame a port of its own on which its other
 * calls travel as compact messages (no penpal envelope, proxy or id string per call), answered by
 * `methods` (see `call-port.ts`). A reloaded document says hello again: it gets a new port and
 * the old one is closed.
 */
export function withCallPort(methods: HostMethods): CallPortMethods {
  callPort().catch(() => undefined);
  let port: MessagePort | undefined;
  const close = (): void => port?.close();
  const hello = async (guest: Parameters<HostMethods['hello']>[0]) =>
    (await callPort()).answerHello(
      methods,
      guest,
      (opened) => {
        close();
        port = opened;
      },
      CALL_PORT_TOOLS,
    );
  return { methods: Object.assign(Object.create(null) as CallPortMethods['methods'], { hello }), close };
}

/** The guest's methods as penpal's `Methods` record (a mapped type has the index signature it needs). */
export type GuestMethodMap = { [K in keyof GuestMethods]: GuestMethods[K] };

/** Options of {@link openPluginFrame}. */
export interface PluginFrameOptions {
  readonly document: Document;
  /** Where the frame is inserted; it is never moved afterwards (moving an iframe reloads it). */
  readonly container: HTMLElement;
  /** The frame's final document. */
  readonly srcdoc: string;
  readonly title: string;
  readonly pluginId: string;
  readonly hidden?: boolean;
  /** What this plugin's connection exposes to its frame (`hello` over penpal, the rest over the call port). */
  readonly methods: HostMethods;
}

/** A plugin frame in the page and the bridge connection bound to it. */
export interface PluginFrame {
  readonly frame: HTMLIFrameElement;
  /** penpal's connection; `destroy()` also closes the frame's call port. */
  readonly connection: Connection<GuestMethodMap>;
}

/**
 * Creates a plugin frame once, with its final `sandbox` and `srcdoc`, inserts it and connects the
 * bridge to its window.
 *
 * The frame is never given a second document: with sandboxed frames in their own process
 * (Chromium's default `IsolateSandboxedIframes`), a frame inserted empty and then navigated to its
 * real `srcdoc` sometimes never loads the second document, and the plugin never connects. The
 * connection is made right after insertion, before the document's scripts can run, and survives a
 * reload of the frame: penpal answers each new handshake of the same window, and the caller's
 * `hello` handler sees the reloaded document say hello again.
 *
 * @throws PluginHostError `PLUGIN_LOAD_FAILED` when the inserted frame has no window (the container is not in a document).
 */
export function openPluginFrame(options: PluginFrameOptions): PluginFrame {
  const frame = createSandboxFrame(options.document, {
    srcdoc: options.srcdoc,
    title: options.title,
    pluginId: options.pluginId,
    hidden: options.hidden === true,
  });
  options.container.append(frame);
  const remoteWindow = frame.contentWindow;
  if (!remoteWindow) {
    frame.remove();
    throw new PluginHostError(
      ErrorCode.PLUGIN_LOAD_FAILED,
      `The frame of ${options.pluginId} has no window: its container is not in the page; insert the container into the document first`,
    );
  }
  const port = withCallPort(options.methods);
  // A sandboxed frame's origin is opaque ('null'), so penpal must accept any origin; the
  // connection is still bound to this frame's window, and messages from any other are ignored.
  const connection = connect<GuestMethodMap>({ messenger: new WindowMessenger({ remoteWindow, allowedOrigins: ['*'] }), methods: port.methods });
  // The caller applies its own time limit; a connection destroyed early must not surface as an
  // unhandled rejection.
  connection.promise.catch(() => undefined);
  const destroy = (): void => {
    connection.destroy();
    port.close();
  };
  return { frame, connection: { promise: connection.promise, destroy } };
}
