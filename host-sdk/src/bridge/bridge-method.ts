import type { PermissionId } from '../core/permissions.js';
import type { PluginManifest } from '../core/manifest/manifest-types.js';
import type { HostServices } from '../host/host-services.js';

/** The plugin making a bridge call: always the identity of its connection, never an argument. */
export interface CallingPlugin {
  readonly id: string;
  readonly manifest: PluginManifest;
}

/** What a bridge method handler receives besides its arguments. */
export interface BridgeCallContext {
  readonly plugin: CallingPlugin;
  readonly services: HostServices;
}

/**
 * What a plugin passes to `call(name, ...args)` and what the promise resolves with. A type only:
 * the host checks arguments at run time itself, since nothing a frame sends can be trusted.
 */
export interface BridgeSignature<Args extends readonly unknown[] = readonly unknown[], Result = unknown> {
  /** Never set: carries the parameter types. */
  readonly args?: Args;
  /** Never set: carries the result type. */
  readonly result?: Result;
}

/** One entry of the bridge method table. */
export interface BridgeMethod {
  /** The name a plugin uses (`call(name)`, or the direct member's name). */
  readonly name: string;
  /** The permission the calling plugin's manifest must list; `null` for none (`addMenuItem`). */
  readonly permission: PermissionId | null;
  /** A direct member of `__PLUGIN_API__` (not reachable through `call`). */
  readonly direct?: boolean;
  /**
   * The method's types as `call` sees them, made with {@link signature}; the guest's
   * `BridgeCallMap` is derived from them. Every built-in `call` method has one; direct members are
   * typed on `PluginApi` instead.
   */
  readonly signature?: BridgeSignature;
  /** Runs the call; arguments are plain data already (functions never cross). Throw `BridgeFailure` to reject with a given text. */
  readonly handler: (context: BridgeCallContext, args: readonly unknown[]) => unknown;
}

/**
 * Builds a table entry. The entry keeps its literal `name`, `direct` and `signature` types, so the
 * guest's method types can be derived from the table.
 */
export function bridgeMethod<const M extends BridgeMethod>(method: M): M {
  return method;
}

/** The one value every {@link signature} returns: the types are all it carries. */
const NO_VALUES = Object.freeze({});

/**
 * The signature of a `call` method: `Args` are its parameters, `Result` what it resolves with
 * (`void` for a confirmation).
 *
 * @example
 * ```ts
 * bridgeMethod({ name: 'getCache', permission: 'cache:access', signature: signature<[key: string], unknown>(), handler });
 * ```
 */
export function signature<Args extends readonly unknown[], Result = void>(): BridgeSignature<Args, Result> {
  return NO_VALUES;
}

/** A table entry reachable through `call`, with its signature. */
export type CallBridgeMethod = BridgeMethod & { readonly direct?: false; readonly signature: BridgeSignature };

/** A table entry that is a direct member of `__PLUGIN_API__`. */
export type DirectBridgeMethod = BridgeMethod & { readonly direct: true };

/**
 * The `call` methods of a table whose entries are `Entry`, by name: `{ args, result }` of each
 * entry's signature. Direct members are left out: they are not reachable through `call`.
 */
export type BridgeCallMapOf<Entry extends BridgeMethod> = {
  [E in Entry as E extends { readonly direct: true } ? never : E['name']]: E extends { readonly signature: BridgeSignature<infer Args, infer Result> }
    ? { args: Args; result: Result }
    : never;
};
