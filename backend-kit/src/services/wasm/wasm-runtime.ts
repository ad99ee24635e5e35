/**
 * The part of the WebAssembly JavaScript API the backend uses. The workspace compiles with
 * `lib: ["ES2022"]` and the Node types in use declare no `WebAssembly` namespace, so the global is
 * typed here, narrowly, instead of widening the shared compiler settings.
 */

/** A compiled module (`WebAssembly.Module`): opaque here; it is only handed to a worker. */
export interface CompiledWasmModule {
  readonly [Symbol.toStringTag]: string;
}

interface WebAssemblyApi {
  compile(bytes: Uint8Array): Promise<CompiledWasmModule>;
}

/** `globalThis.WebAssembly`, typed. */
export const webAssembly: WebAssemblyApi = (globalThis as unknown as { WebAssembly: WebAssemblyApi }).WebAssembly;
