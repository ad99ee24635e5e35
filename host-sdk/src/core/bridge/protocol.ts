/**
 * The wire protocol between the host (launcher window) and the guest runtime inside a plugin
 * frame. One penpal 7 connection per frame carries the handshake, `hello` and the host's calls
 * into the frame ({@link GuestMethods}); the answer to `hello` hands the frame a `MessagePort` of
 * its own, the call port, on which every other call of the guest to the host travels as a compact
 * array ({@link PortCall} and {@link PortReply}). Only structured-clone data crosses; every
 * function a plugin hands over (a registered method, a hook handler, stream handlers, a menu
 * item's action) stays in its frame and is referred to by a name or an id.
 *
 * The host never takes a plugin id from these messages: the connection (and the call port it
 * handed out) a message arrives on is the caller's identity.
 */

/**
 * The version of this protocol; the guest sends it in `hello`, the host refuses another. Version 2
 * moved the guest's calls from penpal to the call port.
 */
export const BRIDGE_PROTOCOL_VERSION = 2;

/** A bridge failure as it crosses the channel (an `Error` is rebuilt from it on the other side). */
export interface WireError {
  /** The specification's text, e.g. `Permission denied: requires config:write`. */
  readonly message: string;
  /** The backend's error code when there is one (decisions section 3). */
  readonly code?: string;
  /** The `prefix` of a `FS_AUTHORIZATION_REQUIRED` refusal, and similar facts. */
  readonly details?: Readonly<Record<string, unknown>>;
}

/** Every answer from host to guest: a value or an error, never a thrown penpal error. */
export type WireResult<T = unknown> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: WireError };

/** A hook invocation as the guest sees it (`ctx` of the onion middleware). */
export interface HookInvocation {
  /** Identifies this run of the chain; the guest passes it back to `hookNext`. */
  readonly invocationId: string;
  /** The hookable launcher method being called. */
  readonly method: string;
  /** The hook registration in this frame (from `registerHook`). */
  readonly hookId: string;
  /** The arguments as they are at this point of the chain. */
  readonly args: readonly unknown[];
}

/** What a guest hook handler produced. */
export interface HookOutcome {
  /** `ctx.args` after the handler (changes before `next()` reach inner layers). */
  readonly args: readonly unknown[];
  /** `ctx.result` after the handler. */
  readonly result: unknown;
  /** `ctx.prevent()` was called: the default implementation does not run. */
  readonly prevented: boolean;
}

/** A menu item a plugin adds at run time (`addMenuItem`); the action stays in the frame. */
export interface WireMenuItem {
  /** Unique within the plugin. */
  readonly id: string;
  readonly label: string;
  /** Icon-font class string, image URL or package path. */
  readonly icon?: string;
  /** Internal route to navigate to when clicked; else the guest's `onClick` runs. */
  readonly route?: string;
  /** Sort hint; lower first. */
  readonly order?: number;
}

/** What the host answers to `hello`. */
export interface HelloAnswer {
  readonly pluginId: string;
  readonly apiBase: string | null;
  /**
   * The call port (a `MessagePort`, typed loosely because the core knows no DOM): the frame's end
   * of a channel the host made for this document. Present in a sandboxed frame's answer; an
   * inline plugin calls the host's methods directly.
   */
  readonly port?: unknown;
}

/** Methods the host exposes to each guest. */
export interface HostMethods {
  /** First message of a guest; answers what the guest needs to build its API. */
  hello(guest: { readonly protocolVersion: number; readonly runtimeVersion: string }): Promise<WireResult<HelloAnswer>>;
  /** `__PLUGIN_API__.call(name, ...args)`: methods of the table that are not direct members. */
  call(name: string, args: readonly unknown[]): Promise<WireResult>;
  /**
   * The direct members of `__PLUGIN_API__` (`registerMethod`, `callPlugin`, `proxyFetchStream`,
   * `registerHook`, `callWasm`, `listWasmPlugins`, `addMenuItem`), with the functions they take
   * replaced by names or ids: `registerMethod(name)`, `registerHook(method, hookId)`,
   * `proxyFetchStream(requestId, request)`, `addMenuItem(item)`; the others take their arguments.
   */
  callDirect(name: string, args: readonly unknown[]): Promise<WireResult>;
  /**
   * Continues the hook chain from inside a guest handler (`await next()`); `prevented` tells the
   * host the handler called `ctx.prevent()` before `next()`, so the default implementation is skipped.
   */
  hookNext(invocationId: string, args: readonly unknown[], prevented?: boolean): Promise<WireResult<{ readonly result: unknown; readonly prevented: boolean }>>;
  /** The guest's `signal` aborted a stream. */
  abortStream(requestId: string): Promise<void>;
  /**
   * An error in the frame: one the runtime caught from a plugin function, an uncaught error or an
   * unhandled rejection (becomes a `runtime-error` event and a `plugin_runtime_error` report).
   * `source` says where (`file:line:column`, `unhandledrejection`, `on('file-drop') listener`),
   * `stack` is the error's stack when the engine gave one, and `hidden` says the engine hid the
   * error's text (WebKit's "Script error." in a sandboxed frame).
   */
  reportError(report: { readonly message: string; readonly source?: string; readonly stack?: string; readonly hidden?: boolean }): Promise<void>;
  /** A resource of the frame failed to load (becomes a `plugin_load_failed` report). */
  reportLoadFailure(report: { readonly resource: string }): Promise<void>;
}

/** The host methods a guest calls on its call port: every one but `hello`. */
export type PortMethodName = Exclude<keyof HostMethods, 'hello'>;

/**
 * A call on the call port: `[id, method, ...args]`, such as `[7, 'call', 'getThemeColor', []]`.
 * `id` is a number the guest picks, unique among its calls that have not been answered yet.
 */
export type PortCall = readonly [id: number, method: PortMethodName, ...args: unknown[]];

/**
 * The answer to a {@link PortCall}: `[id, true, value]` or `[id, false, error]` (a
 * {@link WireResult} without its envelope). A method that answers nothing gives `[id, true]`.
 */
export type PortReply = readonly [id: number, ok: true, value?: unknown] | readonly [id: number, ok: false, error: WireError];

/** One event of a proxied stream, pushed from host to guest. */
export type StreamEvent = { readonly kind: 'chunk'; readonly data: string } | { readonly kind: 'error'; readonly error: WireError } | { readonly kind: 'end' };

/** Methods each guest exposes to the host. */
export interface GuestMethods {
  /** Runs a method this plugin registered, for another plugin's `callPlugin`. */
  invokeMethod(name: string, args: readonly unknown[]): Promise<WireResult>;
  /** Runs this plugin's hook handler for one layer of the chain. */
  runHook(invocation: HookInvocation): Promise<WireResult<HookOutcome>>;
  /** Delivers one event of a proxied stream. */
  streamEvent(requestId: string, event: StreamEvent): Promise<void>;
  /** A menu item this plugin added was activated by the user. */
  menuItemActivated(itemId: string): Promise<void>;
  /** Delivers an event the launcher forwards (e.g. `file-drop`), to listeners registered with `on`. */
  deliverEvent(name: string, payload: unknown): Promise<void>;
  /** Heartbeat: answers at once while the frame's event loop is alive. */
  ping(): Promise<'pong'>;
}
