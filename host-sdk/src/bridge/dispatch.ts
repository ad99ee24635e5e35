import { permissionDenied, toWireError, unknownMethod } from '../core/bridge/bridge-errors.js';
import { toPlainData } from '../core/bridge/plain-data.js';
import type { WireError, WireResult } from '../core/bridge/protocol.js';
import { BridgeFailure } from '../host/backend-client.js';
import type { BridgeCallContext, BridgeMethod } from './bridge-method.js';

/** Largest argument graph copied for one call (a 32 MiB byte array given as numbers). */
const MAX_ARGUMENT_NODES = 32 * 1024 * 1024;

/** The method table indexed by name, with no prototype: `constructor` or `__proto__` are never methods. */
export type BridgeMethodIndex = ReadonlyMap<string, BridgeMethod>;

/**
 * Indexes a method table.
 *
 * @throws Error on a duplicate name (a programming error in the table).
 */
export function indexMethods(methods: readonly BridgeMethod[]): BridgeMethodIndex {
  const index = new Map<string, BridgeMethod>();
  for (const method of methods) {
    if (index.has(method.name)) throw new Error(`Bridge method ${method.name} is defined twice`);
    index.set(method.name, method);
  }
  return index;
}

/** The refusal of a call from a plugin that is not running (deactivated, or never activated). */
export function notActive(pluginId: string): WireError {
  return { message: `${pluginId} is not active; its calls are refused` };
}

/**
 * Runs one bridge call: looks the method up (a direct member through `callDirect` only, the
 * others through `call` only), checks the caller's permission, copies the arguments to plain
 * data, runs the handler and answers a WireResult. Never throws.
 */
export async function dispatchBridgeCall(
  index: BridgeMethodIndex,
  context: BridgeCallContext,
  name: unknown,
  args: unknown,
  via: 'call' | 'direct',
): Promise<WireResult> {
  try {
    const method = typeof name === 'string' ? index.get(name) : undefined;
    if (!method || (method.direct === true) !== (via === 'direct')) return { ok: false, error: unknownMethod(typeof name === 'string' ? name : String(name)) };
    if (method.permission !== null && !context.plugin.manifest.permissions.includes(method.permission)) {
      return { ok: false, error: permissionDenied(method.permission) };
    }
    if (!context.services.active(context.plugin.id)) return { ok: false, error: notActive(context.plugin.id) };
    // Byte arrays given as number[] (uploadPlugin, writeBytes) count one node per byte.
    const plainArgs = toPlainData(Array.isArray(args) ? args : [], { label: 'args', maxNodes: MAX_ARGUMENT_NODES }) as unknown[];
    const value = await method.handler(context, plainArgs);
    return { ok: true, value: value === undefined ? null : value };
  } catch (error) {
    return { ok: false, error: error instanceof BridgeFailure ? error.wire : toWireError(error) };
  }
}
