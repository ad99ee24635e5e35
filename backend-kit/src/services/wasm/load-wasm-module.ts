import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { WASM_MODULE_FILE, type PluginManifest } from '@plughost/host-sdk/core';
import { WASM_PAGE_BYTES, formatBytes } from '../../config/resource-limits.js';
import { capMemory } from './cap-memory.js';
import { readWasmSignatures, type WasmModuleInfo } from './read-wasm-signatures.js';
import { findUnsupportedImport } from './wasm-abi.js';
import { webAssembly, type CompiledWasmModule } from './wasm-runtime.js';

/** A module ready to run. */
export interface LoadedWasmModule {
  readonly loaded: true;
  readonly module: CompiledWasmModule;
  readonly info: WasmModuleInfo;
}

/** Why a plugin has no loaded module (the message of 404 `WASM_NOT_LOADED`). */
export interface UnloadedWasmModule {
  readonly loaded: false;
  readonly reason: string;
}

/** The outcome of loading one plugin's module. */
export type WasmLoadResult = LoadedWasmModule | UnloadedWasmModule;

/** The largest `plugin.wasm` read into memory (32 MiB). */
export const MAX_MODULE_BYTES = 32 * 1024 * 1024;

/** Whether the manifest opts into WASM: layer `l3` and permission `wasm:execute` (package format item 2). */
export function declaresWasm(manifest: PluginManifest): boolean {
  return manifest.layers.includes('l3') && manifest.permissions.includes('wasm:execute');
}

/** The file identity the registry caches a compiled module under; `null` when there is no regular file. */
export async function moduleFileKey(folder: string): Promise<string | null> {
  try {
    const info = await stat(join(folder, WASM_MODULE_FILE));
    return info.isFile() ? `${info.ino}:${info.size}:${info.mtimeMs}` : null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
    throw error;
  }
}

function tooLarge(): UnloadedWasmModule {
  return { loaded: false, reason: `${WASM_MODULE_FILE} is larger than ${MAX_MODULE_BYTES} bytes` };
}

/**
 * Reads `<folder>/plugin.wasm` (an installed plugin's) and compiles it with {@link compileWasmModule}.
 * A file over {@link MAX_MODULE_BYTES} is refused before it is read.
 */
export async function loadWasmModule(folder: string, memoryLimitBytes: number): Promise<WasmLoadResult> {
  const path = join(folder, WASM_MODULE_FILE);
  if ((await stat(path)).size > MAX_MODULE_BYTES) return tooLarge();
  return compileWasmModule(await readFile(path), memoryLimitBytes);
}

/**
 * Compiles and checks the bytes of a `plugin.wasm`, wherever they came from (an installed
 * plugin's folder, a dev server): at most {@link MAX_MODULE_BYTES}, it must compile, import
 * nothing outside the ABI, define at most one memory and ask for at most `memoryLimitBytes` of
 * initial memory. The module that runs is then compiled with that limit as its memory's maximum
 * ({@link capMemory}), so it can never grow past it. Compiling only validates; no plugin code runs
 * here (a start function runs only inside a worker).
 */
export async function compileWasmModule(bytes: Uint8Array, memoryLimitBytes: number): Promise<WasmLoadResult> {
  if (bytes.byteLength > MAX_MODULE_BYTES) return tooLarge();
  let module: CompiledWasmModule;
  try {
    module = await webAssembly.compile(bytes);
  } catch (error) {
    return { loaded: false, reason: `${WASM_MODULE_FILE} does not compile: ${(error as Error).message}` };
  }
  let info: WasmModuleInfo;
  try {
    info = readWasmSignatures(bytes);
  } catch (error) {
    return { loaded: false, reason: `${WASM_MODULE_FILE} cannot be read: ${(error as Error).message}` };
  }
  const unsupported = findUnsupportedImport(info.imports);
  if (unsupported !== null) return { loaded: false, reason: `${WASM_MODULE_FILE} ${unsupported}` };
  // Each memory would get the whole limit: with several, the module could use a multiple of it.
  if (info.memoryMinimumPages.length > 1)
    return { loaded: false, reason: `${WASM_MODULE_FILE} defines ${info.memoryMinimumPages.length} memories; the host runs modules with at most one` };
  const maxPages = Math.floor(memoryLimitBytes / WASM_PAGE_BYTES);
  if (info.memoryMinimumPages.some((pages) => pages > maxPages)) {
    return { loaded: false, reason: `${WASM_MODULE_FILE} asks for more initial memory than the limit of ${formatBytes(memoryLimitBytes)} (${maxPages} pages)` };
  }
  if (info.memoryMinimumPages.length === 0) return { loaded: true, module, info };
  try {
    return { loaded: true, module: await webAssembly.compile(capMemory(bytes, maxPages)), info };
  } catch (error) {
    return { loaded: false, reason: `${WASM_MODULE_FILE} cannot be limited to ${formatBytes(memoryLimitBytes)} of memory: ${(error as Error).message}` };
  }
}
