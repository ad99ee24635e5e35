/** The value types a WASM function signature can use (the MVP numbers plus the reference types). */
export type WasmValueType = 'i32' | 'i64' | 'f32' | 'f64' | 'v128' | 'funcref' | 'externref';

/** The binary encoding of each value type (WebAssembly core specification, section 5.3.1). */
export const VALUE_TYPE_CODES: ReadonlyMap<number, WasmValueType> = new Map([
  [0x7f, 'i32'],
  [0x7e, 'i64'],
  [0x7d, 'f32'],
  [0x7c, 'f64'],
  [0x7b, 'v128'],
  [0x70, 'funcref'],
  [0x6f, 'externref'],
]);

/** The types the ABI passes as JSON numbers; any other type makes an export uncallable over HTTP. */
export type WasmNumberType = 'i32' | 'i64' | 'f32' | 'f64';

/** Whether `type` is one of the number types of the ABI. */
export function isNumberType(type: WasmValueType): type is WasmNumberType {
  return type === 'i32' || type === 'i64' || type === 'f32' || type === 'f64';
}

/** A function type: parameter and result types. */
export interface WasmSignature {
  readonly params: readonly WasmValueType[];
  readonly results: readonly WasmValueType[];
}
