import { PluginHostError } from '@plughost/host-sdk/core';
import { isNumberType, type WasmSignature, type WasmValueType } from './wasm-value-type.js';

/** A value as the worker passes it to or receives it from a WASM function. */
export type WasmValue = number | bigint;

/** A result as the HTTP answer carries it. */
export type JsonWasmResult = number | string | null | JsonWasmResult[];

const I32_MIN = -(2 ** 31);
const U32_MAX = 2 ** 32 - 1;

function refuse(message: string, index: number): never {
  throw new PluginHostError('INVALID_ARGUMENT', message, { field: `args[${index}]` });
}

function toWasmValue(value: unknown, type: WasmValueType, index: number): WasmValue {
  if (typeof value !== 'number' || !Number.isFinite(value)) refuse(`args[${index}] must be a finite number`, index);
  if (type === 'f32' || type === 'f64') return value;
  if (!Number.isInteger(value)) refuse(`args[${index}] must be an integer for a parameter of type ${type}`, index);
  if (type === 'i32') {
    // Unsigned values up to 2^32 - 1 are accepted too: WASM does not know signedness, and the
    // JS API wraps them to the same bits.
    if (value < I32_MIN || value > U32_MAX) refuse(`args[${index}] is out of the i32 range (-2^31 to 2^32 - 1)`, index);
    return value;
  }
  // JSON numbers are doubles: beyond 2^53 the value the caller wrote is already lost.
  if (!Number.isSafeInteger(value)) refuse(`args[${index}] must be a safe integer (|n| <= 2^53 - 1) for an i64 parameter`, index);
  return BigInt(value);
}

/**
 * Converts request arguments to the values the export expects: JSON numbers only, exactly as many
 * as it has parameters; `i32` integers, `i64` safe integers (passed as `BigInt`), `f32`/`f64` any
 * finite number. Anything else is 400 `INVALID_ARGUMENT`.
 */
export function toWasmArguments(args: unknown, signature: WasmSignature, exportName: string): WasmValue[] {
  if (args === undefined) args = [];
  if (!Array.isArray(args)) throw new PluginHostError('INVALID_ARGUMENT', '"args" must be an array of numbers', { field: 'args' });
  const unsupported = [...signature.params, ...signature.results].find((type) => !isNumberType(type));
  if (unsupported !== undefined) {
    throw new PluginHostError('INVALID_ARGUMENT', `Export "${exportName}" uses the type ${unsupported}, which the ABI cannot pass (numbers only)`);
  }
  if (args.length !== signature.params.length) {
    throw new PluginHostError('INVALID_ARGUMENT', `Export "${exportName}" takes ${signature.params.length} argument(s), got ${args.length}`, {
      field: 'args',
    });
  }
  return signature.params.map((type, index) => toWasmValue(args[index], type, index));
}

function toJsonValue(value: unknown): JsonWasmResult {
  if (typeof value === 'bigint') {
    // Numbers while JSON keeps them exact, decimal strings beyond 2^53 so no digit is lost.
    return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value.toString();
  }
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  return null;
}

/**
 * The JSON form of what an export returned: `null` for no result, the value for one, an array for
 * several (multi-value). `i64` is a number when safe, else a decimal string; NaN and the infinities
 * of float results are the strings `"NaN"`, `"Infinity"`, `"-Infinity"` (JSON has no such numbers).
 */
export function toJsonResult(value: unknown, signature: WasmSignature): JsonWasmResult {
  if (signature.results.length === 0) return null;
  if (signature.results.length === 1) return toJsonValue(value);
  return Array.isArray(value) ? value.map(toJsonValue) : null;
}
