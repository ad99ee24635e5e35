/**
 * The typed surface of `window.__PLUGIN_API__` for plugin authors. Types only: the guest runtime
 * builds the object (see `create-plugin-api.ts`).
 *
 * @packageDocumentation
 */
import type { PluginMenuItem as ContributedMenuItem } from '../core/manifest/contributes-types.js';
import type { BridgeCallMap, BridgeMethodName, ProxyRequest } from './bridge-call-map.js';

export type * from './bridge-call-map.js';

/**
 * How a bridge call fails: an `Error` whose `message` is the specification's text
 * (`Permission denied: requires config:write`, `Unknown method: readFile`, ...). Frames are
 * separate realms, so check `name` and `code` rather than `instanceof`.
 */
export interface BridgeError extends Error {
  /** `BridgeError`. */
  readonly name: 'BridgeError';
  /** The backend's error code when there is one (`FS_AUTHORIZATION_REQUIRED`, `PROXY_TIMEOUT`, ...). */
  readonly code?: string;
  /** Further facts, such as the `prefix` of a `FS_AUTHORIZATION_REQUIRED` refusal. */
  readonly details?: Readonly<Record<string, unknown>>;
}

/** Who this frame is, once the host answered (`__PLUGIN_API__.ready`). */
export interface GuestIdentity {
  /** The manifest id of this plugin. */
  readonly pluginId: string;
  /** `{base_url}/api/plugins/<plugin_id>/files`, or `null` where the host has none. */
  readonly apiBase: string | null;
}

/** A method registered for other plugins; it receives their `callPlugin` arguments. */
export type PluginMethod = (...args: unknown[]) => unknown;

/** The `ctx` of a hook handler (onion middleware around a launcher method). */
export interface HookContext {
  /** The hooked launcher method. */
  readonly method: string;
  /** The arguments; edit them (or replace the array) before `next()` to change what inner layers get. */
  args: unknown[];
  /** The result; set by `next()`, editable after it. */
  result: unknown;
  /** Blocks the default implementation of the launcher method. */
  prevent(): void;
}

/** Runs the inner layers and the default implementation; resolves with (and sets) `ctx.result`. */
export type HookNext = () => Promise<unknown>;

/** A hook handler: `async (ctx, next) => { ...; await next(); ... }`. */
export type HookHandler = (ctx: HookContext, next: HookNext) => unknown;

/**
 * A sidebar item added at run time (`addMenuItem`) that runs `onClick` in this frame or navigates
 * to an internal `route`.
 */
export interface ActionMenuItem {
  /** Unique within the plugin; adding an item with the same id replaces it. */
  readonly id: string;
  /** Cut to 100 characters. */
  readonly label: string;
  /** Icon-font class string, image URL or package path. */
  readonly icon?: string;
  /** Internal route to navigate to when clicked; else `onClick` runs. */
  readonly route?: string;
  /** Sort hint; lower first. */
  readonly order?: number;
  /** Runs in this frame when the user activates the item (and it has no `route`). */
  readonly onClick?: () => unknown;
  /** Only a {@link PageMenuItem} has a page path. */
  readonly path?: never;
  /** Only a {@link PageMenuItem} has an action. */
  readonly action?: never;
}

/**
 * The specification's `PluginMenuItem`, the shape of `contributes.menuItems[]`, added at run time
 * (`addMenuItem`): choosing it shows the page `path` of this plugin's package, as a manifest's
 * menu item does.
 *
 * @example
 * ```ts
 * await __PLUGIN_API__.addMenuItem({ path: 'dist/stats.html', label: 'Stats', icon: 'ri-bar-chart-line', action: 'page' });
 * ```
 */
export interface PageMenuItem extends ContributedMenuItem {
  /** Unique within the plugin; default the `path`. Adding an item with the same id replaces it. */
  readonly id?: string;
  /** Sort hint; lower first. */
  readonly order?: number;
  /** A page item shows `path`; it has no route. */
  readonly route?: never;
  /** A page item shows `path`; it runs no code in this frame. */
  readonly onClick?: never;
}

/** What `addMenuItem` accepts: the specification's page item, or an item with an action. */
export type PluginMenuItem = PageMenuItem | ActionMenuItem;

/** `proxyFetchStream` request: a ProxyRequest, plus a signal that aborts the stream. */
export interface ProxyStreamRequest extends ProxyRequest {
  /** Aborting stops delivery and tells the host to close the upstream request. */
  readonly signal?: AbortSignal;
}

/** Receivers of a proxied server-sent event stream. */
export interface ProxyStreamHandlers {
  /** One upstream event: the content of a data line without `data:`. */
  onChunk(chunk: string): void;
  /** The stream failed; the returned promise resolves afterwards. */
  onError?(error: BridgeError): void;
}

/** Events the launcher forwards to plugin frames, by name, with their payload. */
export interface PluginEventMap {
  /** Absolute paths of files dropped on the launcher window. */
  'file-drop': readonly string[];
}

/** A listener of a launcher-forwarded event. */
export type PluginEventListener<P = unknown> = (payload: P) => void;

/**
 * `window.__PLUGIN_API__`: the bridge between a plugin frame and the launcher. It exists from
 * the first line of the plugin's own scripts; calls made before the connection is up wait for
 * it. Every call resolves with a value or rejects with a {@link BridgeError}.
 *
 * @example
 * ```ts
 * const settings = await __PLUGIN_API__.call('getSettings');
 * await __PLUGIN_API__.registerMethod('greet', (name) => `Hello, ${String(name)}`);
 * ```
 */
export interface PluginApi {
  /** Version of the guest runtime in this frame. */
  readonly runtimeVersion: string;
  /** Version of the bridge protocol this runtime speaks. */
  readonly protocolVersion: number;
  /** This plugin's id once {@link PluginApi.ready} resolved; `null` before. */
  readonly pluginId: string | null;
  /** Resolves when the host has answered `hello`; rejects when it refused this frame. */
  readonly ready: Promise<GuestIdentity>;

  /**
   * Calls a bridge method of the specification's table (every method that is not a direct
   * member). `Uint8Array` arguments cross as they are.
   *
   * @returns The method's result.
   * @throws BridgeError `Permission denied: requires <permission>`, `Unknown method: <name>`, ...
   */
  call<K extends BridgeMethodName>(name: K, ...args: BridgeCallMap[K]['args']): Promise<BridgeCallMap[K]['result']>;

  /**
   * Registers a method other plugins reach with `callPlugin`. The function stays in this frame;
   * only `name` is sent. Registering a name again replaces the function. Needs `config:write`.
   */
  registerMethod(name: string, fn: PluginMethod): Promise<void>;
  /**
   * Calls a method another plugin registered.
   *
   * @throws BridgeError when the target is not installed, not active or has not registered `method`.
   */
  callPlugin(pluginId: string, method: string, ...args: unknown[]): Promise<unknown>;
  /** Runs an export (default `on_load`) of a loaded WASM plugin with number arguments. Needs `wasm:execute`. */
  callWasm(pluginId: string, exportName?: string, ...args: number[]): Promise<{ readonly ok: true; readonly result: unknown }>;
  /** Ids of the loaded WASM plugins. Needs `wasm:execute`. */
  listWasmPlugins(): Promise<string[]>;
  /** Wraps a launcher method with an onion-style handler that stays in this frame. Needs `hook:register`. */
  registerHook(method: string, handler: HookHandler): Promise<void>;
  /**
   * Adds a sidebar item: a page of this plugin's package (the specification's `PluginMenuItem`:
   * `path`, `label`, `icon`, `action`), or an item with an `id` that runs `onClick` (which stays
   * in this frame) or navigates to a `route`. Removed when the plugin is deactivated.
   *
   * @throws BridgeError `INVALID_ARGUMENT` naming the field that is wrong.
   */
  addMenuItem(item: PluginMenuItem): Promise<void>;
  /**
   * Streams server-sent events through the CORS proxy. Resolves when the stream ends (or fails,
   * or `signal` aborts); `onChunk` may in principle fire after that, so judge completion by the
   * in-stream `[DONE]` marker or `onError`. An already-aborted signal never starts the stream.
   * Needs `network:cors_proxy`.
   *
   * @throws BridgeError when the host refuses to start the stream.
   */
  proxyFetchStream(request: ProxyStreamRequest, handlers: ProxyStreamHandlers): Promise<void>;

  /**
   * Listens to an event the launcher forwards to this frame.
   *
   * @returns A function that removes the listener.
   */
  on<K extends keyof PluginEventMap>(name: K, listener: PluginEventListener<PluginEventMap[K]>): () => void;
  on(name: string, listener: PluginEventListener): () => void;
  /** Removes a listener added with {@link PluginApi.on}. */
  off<K extends keyof PluginEventMap>(name: K, listener: PluginEventListener<PluginEventMap[K]>): void;
  off(name: string, listener: PluginEventListener): void;
}
