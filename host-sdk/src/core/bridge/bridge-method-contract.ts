/**
 * What one bridge method promises, apart from the code that runs it: its name, the permission it
 * needs, whether it is a direct member of `__PLUGIN_API__`, and the types `call` sees. The host's
 * table adds a handler to each (`bridge/bridge-method.ts`); the CLI's permission check and the
 * guest's types read the contract alone, so neither pulls the browser host.
 */
import type { PermissionId } from '../permissions.js';

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

/** The one value every {@link signature} returns: the types are all it carries. */
const NO_VALUES = Object.freeze({});

/**
 * The signature of a `call` method: `Args` are its parameters, `Result` what it resolves with
 * (`void` for a confirmation). Types only (not a package signature: see `signing/` for those).
 *
 * @example
 * ```ts
 * { name: 'getCache', permission: 'cache:access', group: 'data', signature: signature<[key: string], unknown>() }
 * ```
 */
export function signature<Args extends readonly unknown[], Result = void>(): BridgeSignature<Args, Result> {
  return NO_VALUES;
}

/** The contract of one bridge method: everything about it except the code that runs it. */
export interface BridgeMethodContract {
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
}

/** A method reachable through `call`: it must carry its signature. */
export type CallBridgeMethodContract = BridgeMethodContract & { readonly direct?: false; readonly signature: BridgeSignature };

/** A direct member of `__PLUGIN_API__`. */
export type DirectBridgeMethodContract = BridgeMethodContract & { readonly direct: true };

/**
 * The `call` methods of a table whose entries are `Entry`, by name: `{ args, result }` of each
 * entry's signature. Direct members are left out: they are not reachable through `call`.
 */
export type BridgeCallMapOf<Entry extends BridgeMethodContract> = {
  [E in Entry as E extends { readonly direct: true } ? never : E['name']]: E extends { readonly signature: BridgeSignature<infer Args, infer Result> }
    ? { args: Args; result: Result }
    : never;
};
