/**
 * Type-level test, checked by `tsc -b` (it runs nothing): the guest's `BridgeCallMap` is the
 * bridge method table's own types. Each check below fails to compile when the map and the table
 * disagree: a `call` method of the table missing from the map or typed differently, a direct
 * member reachable through `call`, or a `call` entry without a signature.
 */
import type { BridgeCallMap, BridgeMethodName, PluginApi } from '@plughost/host-sdk/guest';
import { bridgeMethod, signature, type BridgeCallMapOf, type CallBridgeMethod, type DirectBridgeMethod } from '../../../host-sdk/src/bridge/bridge-method.js';
import type { BridgeTableEntry } from '../../../host-sdk/src/bridge/bridge-methods.js';

/** `true` only when `X` and `Y` are the same type (not merely assignable either way). */
type Equal<X, Y> = (<T>() => T extends X ? 1 : 2) extends <T>() => T extends Y ? 1 : 2 ? true : false;
/** Compiles only with `true`. */
type Expect<T extends true> = T;

/** The table's entries reachable through `call`, and its direct members. */
type CallEntry = Exclude<BridgeTableEntry, { readonly direct: true }>;
type DirectEntry = Extract<BridgeTableEntry, { readonly direct: true }>;
/** `{ args, result }` of one table entry's signature. */
type SignatureOf<E> = E extends { readonly signature: { readonly args?: infer Args; readonly result?: infer Result } }
  ? { args: Exclude<Args, undefined>; result: Result }
  : never;

export type Checks = [
  // The map names exactly the table's `call` methods, and no direct member.
  Expect<Equal<BridgeMethodName, CallEntry['name']>>,
  Expect<Equal<Extract<BridgeMethodName, DirectEntry['name']>, never>>,
  // Every method's types are its table entry's signature.
  Expect<Equal<{ [K in BridgeMethodName]: BridgeCallMap[K] }, { [E in CallEntry as E['name']]: SignatureOf<E> }>>,
  // A few by hand, so a mistake in the derivation itself shows too (one entry per group).
  Expect<Equal<BridgeCallMap['getSettings'], { args: []; result: Record<string, unknown> }>>,
  Expect<Equal<BridgeCallMap['setCache'], { args: [key: string, value: unknown, ttlSeconds?: number]; result: unknown }>>,
  // biome-ignore lint/suspicious/noConfusingVoidType: the test pins the declared result type, which is void
  Expect<Equal<BridgeCallMap['overlay.hide'], { args: [overlayId: string]; result: void }>>,
  Expect<Equal<BridgeCallMap['download.progress']['result'], import('@plughost/host-sdk/guest').DownloadSnapshot | null>>,
  Expect<Equal<BridgeCallMap['getThemeColor'], { args: []; result: string | null }>>,
  Expect<Equal<BridgeCallMap['modpack.install']['result'], { readonly instanceId: string }>>,
  // `call` takes these types.
  Expect<Equal<ReturnType<typeof callSetCache>, Promise<unknown>>>,
  Expect<Equal<Awaited<ReturnType<typeof callListPlugins>>, import('@plughost/host-sdk/guest').BridgePluginEntry[]>>,
];

declare const api: PluginApi;
const callSetCache = () => api.call('setCache', 'key', { any: 'value' }, 60);
const callListPlugins = () => api.call('listPlugins');

export function wrongCalls(): void {
  // @ts-expect-error a direct member is not reachable through `call`
  void api.call('registerMethod', 'name');
  // @ts-expect-error an unknown method
  void api.call('readFile', '/etc/passwd');
  // @ts-expect-error `showToast`'s type is a ToastType
  void api.call('showToast', 'hello', 'warning');
  // @ts-expect-error `overlay.setPosition` needs x and y
  void api.call('overlay.setPosition', 'overlay-1', 10);
}

// `addMenuItem` takes the specification's PluginMenuItem (a page) or the run-time item, not a mix.
export function menuItems(): void {
  void api.addMenuItem({ path: 'dist/stats.html', label: 'Stats', icon: 'ri-bar-chart-line', action: 'page' });
  void api.addMenuItem({ id: 'stats', path: 'dist/stats.html', label: 'Stats', order: 1 });
  void api.addMenuItem({ id: 'refresh', label: 'Refresh', onClick: () => undefined });
  void api.addMenuItem({ id: 'settings', label: 'Settings', route: '/settings' });
  // @ts-expect-error a page item runs no code in the frame
  void api.addMenuItem({ path: 'dist/stats.html', label: 'Stats', onClick: () => undefined });
  // @ts-expect-error a page item has no route
  void api.addMenuItem({ path: 'dist/stats.html', label: 'Stats', route: '/settings' });
  // @ts-expect-error an item with an action needs an id
  void api.addMenuItem({ label: 'Refresh', onClick: () => undefined });
  // @ts-expect-error `page` is the only action
  void api.addMenuItem({ path: 'dist/stats.html', label: 'Stats', action: 'open' });
}

// Adding an entry is the only step: a new `call` entry appears in the derived map with its types.
const added = bridgeMethod({ name: 'example.added', permission: 'config:read', signature: signature<[count: number], string>(), handler: () => 'ok' });
export type AddedChecks = [Expect<Equal<BridgeCallMapOf<BridgeTableEntry | typeof added>['example.added'], { args: [count: number]; result: string }>>];

// A `call` entry must carry its signature to be a table entry; a direct member need not.
// @ts-expect-error `call` method without a signature
export const unsigned = bridgeMethod({ name: 'example.unsigned', permission: null, handler: () => null }) satisfies CallBridgeMethod | DirectBridgeMethod;
export const direct = bridgeMethod({ name: 'example.direct', permission: null, direct: true, handler: () => null }) satisfies
  | CallBridgeMethod
  | DirectBridgeMethod;
