import type { WasmImportInfo } from './read-wasm-signatures.js';
import { isNumberType, type WasmSignature } from './wasm-value-type.js';

/** The export called when a request names none (specification: `callWasm` default). */
export const DEFAULT_EXPORT = 'on_load';

/** The import module of every host function. */
export const HOST_MODULE = 'env';

/**
 * The host functions a module may import, with the check of their signature. Nothing else is
 * offered (no WASI, no file system, no network), so a module asking for more fails to load with a
 * message naming the import, instead of failing later at instantiation.
 */
const HOST_FUNCTIONS: Readonly<Record<string, { readonly describe: string; readonly fits: (signature: WasmSignature) => boolean }>> = {
  // log(ptr: i32, len: i32): UTF-8 text in the module's exported memory.
  log: {
    describe: '(i32, i32) -> ()',
    fits: (s) => s.params.length === 2 && s.params.every((type) => type === 'i32') && s.results.length === 0,
  },
  // log_number(n): any one number type, so C (`double`), Rust (`i32`/`f64`) and AssemblyScript fit.
  log_number: {
    describe: '(i32 | i64 | f32 | f64) -> ()',
    fits: (s) => s.params.length === 1 && s.params[0] !== undefined && isNumberType(s.params[0]) && s.results.length === 0,
  },
};

/** The names of the host functions, for documentation and error messages. */
export const HOST_FUNCTION_NAMES: readonly string[] = Object.keys(HOST_FUNCTIONS);

/** The first import outside the ABI, as a sentence for the error message; `null` when all fit. */
export function findUnsupportedImport(imports: readonly WasmImportInfo[]): string | null {
  for (const entry of imports) {
    const label = `"${entry.module}.${entry.name}"`;
    const host = entry.module === HOST_MODULE && Object.hasOwn(HOST_FUNCTIONS, entry.name) ? HOST_FUNCTIONS[entry.name] : undefined;
    if (entry.kind !== 'function' || host === undefined || entry.signature === undefined) {
      return `imports ${entry.kind} ${label}, which the host does not provide (only ${HOST_FUNCTION_NAMES.map((name) => `${HOST_MODULE}.${name}`).join(', ')}; no WASI, file system or network)`;
    }
    if (!host.fits(entry.signature)) return `imports ${label} with the wrong signature (expected ${host.describe})`;
  }
  return null;
}
