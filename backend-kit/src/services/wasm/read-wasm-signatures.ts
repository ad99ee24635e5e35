import { VALUE_TYPE_CODES, type WasmSignature, type WasmValueType } from './wasm-value-type.js';

/** One import of a module, with the signature when it is a function. */
export interface WasmImportInfo {
  readonly module: string;
  readonly name: string;
  readonly kind: 'function' | 'table' | 'memory' | 'global' | 'tag';
  readonly signature?: WasmSignature;
}

/** One export of a module, with the signature when it is a function. */
export interface WasmExportInfo {
  readonly kind: 'function' | 'table' | 'memory' | 'global' | 'tag';
  readonly signature?: WasmSignature;
}

/** What the backend needs to know of a module before running it. */
export interface WasmModuleInfo {
  readonly imports: readonly WasmImportInfo[];
  /** Export name → kind and signature. */
  readonly exports: ReadonlyMap<string, WasmExportInfo>;
  /** Initial size in 64 KiB pages of each memory the module defines itself. */
  readonly memoryMinimumPages: readonly number[];
}

const KINDS = ['function', 'table', 'memory', 'global', 'tag'] as const;

/**
 * A cursor over the module bytes. Bounds are checked on every read: the reader runs on bytes
 * `WebAssembly.compile` accepted, but a parse bug must fail loudly, never read garbage.
 */
class ByteReader {
  position = 0;
  constructor(
    private readonly bytes: Uint8Array,
    private readonly end = bytes.length,
  ) {}

  byte(): number {
    if (this.position >= this.end) throw new Error('Unexpected end of the WASM module');
    return this.bytes[this.position++] ?? 0;
  }

  /** Unsigned LEB128 (u32, and the u64 limits of memory64, which fit a double well enough here). */
  unsigned(): number {
    let result = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      const byte = this.byte();
      result += (byte & 0x7f) * scale;
      if ((byte & 0x80) === 0) return result;
      scale *= 128;
    }
    throw new Error('LEB128 number too long in the WASM module');
  }

  name(): string {
    const length = this.unsigned();
    if (this.position + length > this.end) throw new Error('Unexpected end of the WASM module');
    const text = new TextDecoder().decode(this.bytes.subarray(this.position, this.position + length));
    this.position += length;
    return text;
  }

  valueType(): WasmValueType {
    const code = this.byte();
    const type = VALUE_TYPE_CODES.get(code);
    if (type === undefined) throw new Error(`Unsupported value type 0x${code.toString(16)} in the WASM module`);
    return type;
  }

  limits(): number {
    const flags = this.byte();
    const minimum = this.unsigned();
    if (flags & 0x01) this.unsigned();
    return minimum;
  }

  skipTo(position: number): void {
    this.position = position;
  }
}

function readTypes(reader: ByteReader): WasmSignature[] {
  const types: WasmSignature[] = [];
  for (let count = reader.unsigned(); count > 0; count--) {
    const form = reader.byte();
    if (form !== 0x60) throw new Error(`Unsupported type form 0x${form.toString(16)} in the WASM module`);
    const params = Array.from({ length: reader.unsigned() }, () => reader.valueType());
    const results = Array.from({ length: reader.unsigned() }, () => reader.valueType());
    types.push({ params, results });
  }
  return types;
}

function signatureAt(types: readonly WasmSignature[], index: number): WasmSignature {
  const signature = types[index];
  if (signature === undefined) throw new Error(`Type index ${index} out of range in the WASM module`);
  return signature;
}

/**
 * Reads the imports, exports and function signatures of a WASM binary. `WebAssembly.Module.exports`
 * gives only names and kinds; the signatures are needed to convert JSON numbers into `i64`
 * (`BigInt`) and the float types before the call, and to refuse a wrong argument count with 400.
 */
export function readWasmSignatures(bytes: Uint8Array): WasmModuleInfo {
  const reader = new ByteReader(bytes);
  const magic = [0x00, 0x61, 0x73, 0x6d];
  if (bytes.length < 8 || magic.some((byte, i) => bytes[i] !== byte)) throw new Error('Not a WASM module');
  reader.skipTo(8);
  let types: WasmSignature[] = [];
  const imports: WasmImportInfo[] = [];
  const functionTypes: WasmSignature[] = [];
  const memoryMinimumPages: number[] = [];
  const exports = new Map<string, WasmExportInfo>();

  while (reader.position < bytes.length) {
    const id = reader.byte();
    const size = reader.unsigned();
    const end = reader.position + size;
    if (end > bytes.length) throw new Error('A section runs past the end of the WASM module');
    if (id === 1) types = readTypes(reader);
    else if (id === 2) {
      for (let count = reader.unsigned(); count > 0; count--) {
        const module = reader.name();
        const name = reader.name();
        const kind = KINDS[reader.byte()];
        if (kind === 'function') {
          const signature = signatureAt(types, reader.unsigned());
          functionTypes.push(signature);
          imports.push({ module, name, kind, signature });
        } else if (kind === 'table') {
          reader.byte();
          reader.limits();
          imports.push({ module, name, kind });
        } else if (kind === 'memory') {
          reader.limits();
          imports.push({ module, name, kind });
        } else if (kind === 'global') {
          reader.valueType();
          reader.byte();
          imports.push({ module, name, kind });
        } else if (kind === 'tag') {
          reader.byte();
          reader.unsigned();
          imports.push({ module, name, kind });
        } else throw new Error('Unknown import kind in the WASM module');
      }
    } else if (id === 3) {
      for (let count = reader.unsigned(); count > 0; count--) functionTypes.push(signatureAt(types, reader.unsigned()));
    } else if (id === 5) {
      for (let count = reader.unsigned(); count > 0; count--) memoryMinimumPages.push(reader.limits());
    } else if (id === 7) {
      for (let count = reader.unsigned(); count > 0; count--) {
        const name = reader.name();
        const kind = KINDS[reader.byte()];
        const index = reader.unsigned();
        if (kind === undefined) throw new Error('Unknown export kind in the WASM module');
        const signature = kind === 'function' ? functionTypes[index] : undefined;
        exports.set(name, signature ? { kind, signature } : { kind });
      }
    }
    // Every other section (code, data, custom, ...) is irrelevant to calling conventions.
    reader.skipTo(end);
  }
  return { imports, exports, memoryMinimumPages };
}
