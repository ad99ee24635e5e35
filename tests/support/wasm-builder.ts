/**
 * Writes WebAssembly binaries by hand, so tests need no compiler: magic and version, then the
 * type, import, function, memory, export, code and data sections, sizes as LEB128
 * (WebAssembly core specification, chapter 5).
 */

/** A value type of a signature. */
export type ValueType = 'i32' | 'i64' | 'f32' | 'f64';

const VALUE_TYPE: Record<ValueType, number> = { i32: 0x7f, i64: 0x7e, f32: 0x7d, f64: 0x7c };

/** Unsigned LEB128. */
export function unsignedLeb(value: number): number[] {
  const bytes: number[] = [];
  let rest = value;
  do {
    let byte = rest % 128;
    rest = Math.floor(rest / 128);
    if (rest > 0) byte |= 0x80;
    bytes.push(byte);
  } while (rest > 0);
  return bytes;
}

/** Signed LEB128 of any integer (a `bigint` for i64 constants beyond 2^53). */
export function signedLeb(value: number | bigint): number[] {
  let rest = BigInt(value);
  const bytes: number[] = [];
  for (;;) {
    const byte = Number(rest & 0x7fn);
    rest >>= 7n;
    const done = (rest === 0n && (byte & 0x40) === 0) || (rest === -1n && (byte & 0x40) !== 0);
    bytes.push(done ? byte : byte | 0x80);
    if (done) return bytes;
  }
}

function utf8(text: string): number[] {
  return [...new TextEncoder().encode(text)];
}

function name(text: string): number[] {
  const bytes = utf8(text);
  return [...unsignedLeb(bytes.length), ...bytes];
}

function vector(items: readonly number[][]): number[] {
  return [...unsignedLeb(items.length), ...items.flat()];
}

function section(id: number, content: number[]): number[] {
  return content.length === 0 ? [] : [id, ...unsignedLeb(content.length), ...content];
}

/** Instructions, as byte arrays to concatenate into a function body. */
export const op = {
  unreachable: [0x00],
  nop: [0x01],
  /** `block` with no result. */
  block: [0x02, 0x40],
  /** `loop` with no result. */
  loop: [0x03, 0x40],
  end: [0x0b],
  br: (depth: number) => [0x0c, ...unsignedLeb(depth)],
  call: (index: number) => [0x10, ...unsignedLeb(index)],
  drop: [0x1a],
  localGet: (index: number) => [0x20, ...unsignedLeb(index)],
  i32Const: (value: number) => [0x41, ...signedLeb(value)],
  i64Const: (value: number | bigint) => [0x42, ...signedLeb(value)],
  f32Const: (value: number) => {
    const view = new DataView(new ArrayBuffer(4));
    view.setFloat32(0, value, true);
    return [0x43, ...new Uint8Array(view.buffer)];
  },
  f64Const: (value: number) => {
    const view = new DataView(new ArrayBuffer(8));
    view.setFloat64(0, value, true);
    return [0x44, ...new Uint8Array(view.buffer)];
  },
  i32Add: [0x6a],
  i64Add: [0x7c],
  i64Mul: [0x7e],
  f32Add: [0x92],
  f64Mul: [0xa2],
} as const;

/** A function signature. */
export interface Signature {
  params?: ValueType[];
  results?: ValueType[];
}

/** An imported function. */
export interface ImportSpec extends Signature {
  module: string;
  name: string;
}

/** A function the module defines. Its index follows the imports. */
export interface FunctionSpec extends Signature {
  /** Export name; omitted means not exported. */
  export?: string;
  /** Extra locals after the parameters. */
  locals?: ValueType[];
  /** Instructions without the final `end` (added here). */
  body: (readonly number[] | number)[];
}

/** A whole module. */
export interface ModuleSpec {
  imports?: ImportSpec[];
  functions?: FunctionSpec[];
  /** One memory of `min` (and `max`) 64 KiB pages, exported under `export` when given. */
  memory?: { min: number; max?: number; export?: string };
  /** Active data segments of memory 0 at a constant offset. */
  data?: { offset: number; bytes: Uint8Array | string }[];
  /** An exported global (to test exports that are not functions). */
  exportedGlobal?: { name: string; value: number };
}

function signatureKey(signature: Signature): string {
  return `${(signature.params ?? []).join(',')}->${(signature.results ?? []).join(',')}`;
}

/** Builds the binary of `spec`. */
export function buildWasmModule(spec: ModuleSpec): Uint8Array {
  const imports = spec.imports ?? [];
  const functions = spec.functions ?? [];
  const types: Signature[] = [];
  const typeIndex = (signature: Signature): number => {
    const key = signatureKey(signature);
    let index = types.findIndex((type) => signatureKey(type) === key);
    if (index < 0) index = types.push(signature) - 1;
    return index;
  };
  const importEntries = imports.map((entry) => [...name(entry.module), ...name(entry.name), 0x00, ...unsignedLeb(typeIndex(entry))]);
  const functionEntries = functions.map((fn) => unsignedLeb(typeIndex(fn)));
  const typeEntries = types.map((type) => [
    0x60,
    ...vector((type.params ?? []).map((t) => [VALUE_TYPE[t]])),
    ...vector((type.results ?? []).map((t) => [VALUE_TYPE[t]])),
  ]);

  const exports: number[][] = [];
  functions.forEach((fn, i) => {
    if (fn.export !== undefined) exports.push([...name(fn.export), 0x00, ...unsignedLeb(imports.length + i)]);
  });
  if (spec.memory?.export !== undefined) exports.push([...name(spec.memory.export), 0x02, 0x00]);
  if (spec.exportedGlobal) exports.push([...name(spec.exportedGlobal.name), 0x03, 0x00]);

  const memory = spec.memory
    ? vector([
        spec.memory.max === undefined ? [0x00, ...unsignedLeb(spec.memory.min)] : [0x01, ...unsignedLeb(spec.memory.min), ...unsignedLeb(spec.memory.max)],
      ])
    : [];
  const globals = spec.exportedGlobal ? vector([[0x7f, 0x00, ...op.i32Const(spec.exportedGlobal.value), ...op.end]]) : [];
  const code = functions.map((fn) => {
    const locals = (fn.locals ?? []).map((type) => [0x01, VALUE_TYPE[type]]);
    const body = [...vector(locals), ...fn.body.flatMap((part) => (typeof part === 'number' ? [part] : [...part])), ...op.end];
    return [...unsignedLeb(body.length), ...body];
  });
  const data = (spec.data ?? []).map((segment) => {
    const bytes = typeof segment.bytes === 'string' ? utf8(segment.bytes) : [...segment.bytes];
    return [0x00, ...op.i32Const(segment.offset), ...op.end, ...unsignedLeb(bytes.length), ...bytes];
  });

  return new Uint8Array([
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    ...section(1, typeEntries.length ? vector(typeEntries) : []),
    ...section(2, importEntries.length ? vector(importEntries) : []),
    ...section(3, functionEntries.length ? vector(functionEntries) : []),
    ...section(5, memory),
    ...section(6, globals),
    ...section(7, exports.length ? vector(exports) : []),
    ...section(10, code.length ? vector(code) : []),
    ...section(11, data.length ? vector(data) : []),
  ]);
}

/** `WebAssembly.validate`, typed here because the test tsconfig has no WebAssembly declarations. */
export function isValidWasm(bytes: Uint8Array): boolean {
  return (globalThis as unknown as { WebAssembly: { validate(bytes: Uint8Array): boolean } }).WebAssembly.validate(bytes);
}
