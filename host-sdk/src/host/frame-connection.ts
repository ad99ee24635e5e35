import { connect, WindowMessenger, type Connection } from 'penpal';
import { ErrorCode, PluginHostError } from '../core/errors.js';
import type { GuestMethods, HostMethods } from '../core/bridge/protocol.js';
import { createSandboxFrame } from '../frame/sandbox-frame.js';

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
  /** What this plugin's connection exposes to its frame. */
  readonly methods: HostMethods;
}

/** A plugin frame in the page and the bridge connection bound to it. */
export interface PluginFrame {
  readonly frame: HTMLIFrameElement;
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
  // A sandboxed frame's origin is opaque ('null'), so penpal must accept any origin; the
  // connection is still bound to this frame's window, and messages from any other are ignored.
  const connection = connect<GuestMethodMap>({
    messenger: new WindowMessenger({ remoteWindow, allowedOrigins: ['*'] }),
    methods: options.methods as unknown as Record<string, (...args: never[]) => unknown>,
  });
  // The caller applies its own time limit; a connection destroyed early must not surface as an
  // unhandled rejection.
  connection.promise.catch(() => undefined);
  return { frame, connection };
}
