import { PluginHostError } from '@plughost/host-sdk/core';

/**
 * What one plugin may use of the machine through the local backend (decisions section 2). Each
 * field is a `createLocalBackend` option of the same name; {@link DEFAULT_RESOURCE_LIMITS} holds
 * the defaults.
 */
export interface ResourceLimits {
  /** Largest linear memory of a WASM module, in bytes (a multiple of the 64 KiB page). */
  readonly wasmMemoryLimitBytes: number;
  /** Time one WASM invoke may run, in milliseconds; the worker is then stopped. */
  readonly wasmTimeoutMs: number;
  /** WASM invocations one plugin may have running at once; the next one gets `WASM_LIMIT_EXCEEDED`. */
  readonly wasmConcurrencyPerPlugin: number;
  /** Downloads running at once across the backend (plugin tasks, modpack installs, the launcher's own). */
  readonly downloadConcurrency: number;
  /** Downloads of one plugin running at once; its further tasks wait even when a slot is free. */
  readonly downloadsRunningPerPlugin: number;
  /** Tasks of one plugin waiting (queued or paused); one more gets 429 `DOWNLOAD_QUEUE_FULL`. */
  readonly downloadsQueuedPerPlugin: number;
  /** Bytes kept of a shell command's stdout, and of its stderr. */
  readonly shellOutputLimitBytes: number;
}

/** The size of a WASM memory page. */
export const WASM_PAGE_BYTES = 64 * 1024;

/** The defaults of {@link ResourceLimits}, as decisions section 2 sets them. */
export const DEFAULT_RESOURCE_LIMITS: ResourceLimits = {
  wasmMemoryLimitBytes: 64 * 1024 * 1024,
  wasmTimeoutMs: 5000,
  wasmConcurrencyPerPlugin: 2,
  downloadConcurrency: 3,
  downloadsRunningPerPlugin: 2,
  downloadsQueuedPerPlugin: 32,
  shellOutputLimitBytes: 1024 * 1024,
};

/** What each option accepts: the smallest and largest value, and how to say it. */
const RULES: Readonly<Record<keyof ResourceLimits, { readonly min: number; readonly max: number; readonly unit: string }>> = {
  // 4 GiB is all a 32-bit WASM memory can address.
  wasmMemoryLimitBytes: { min: WASM_PAGE_BYTES, max: 4 * 1024 ** 3, unit: 'bytes, a multiple of 65536' },
  wasmTimeoutMs: { min: 100, max: 3_600_000, unit: 'milliseconds' },
  wasmConcurrencyPerPlugin: { min: 1, max: 1024, unit: 'calls' },
  downloadConcurrency: { min: 1, max: 1024, unit: 'downloads' },
  downloadsRunningPerPlugin: { min: 1, max: 1024, unit: 'downloads' },
  downloadsQueuedPerPlugin: { min: 0, max: 1_000_000, unit: 'tasks' },
  shellOutputLimitBytes: { min: 1, max: 1024 ** 3, unit: 'bytes' },
};

/**
 * The limits of a backend: each option given, else its default. Checked at start, so a typo
 * fails there and not on the first plugin call.
 *
 * @throws PluginHostError `INVALID_ARGUMENT` naming the option and what it accepts.
 */
export function resolveResourceLimits(options: Partial<Record<keyof ResourceLimits, number | undefined>>): ResourceLimits {
  const limits: Record<keyof ResourceLimits, number> = { ...DEFAULT_RESOURCE_LIMITS };
  for (const name of Object.keys(RULES) as (keyof ResourceLimits)[]) {
    const value = options[name];
    if (value === undefined) continue;
    const { min, max, unit } = RULES[name];
    const fits = Number.isSafeInteger(value) && value >= min && value <= max && (name !== 'wasmMemoryLimitBytes' || value % WASM_PAGE_BYTES === 0);
    if (!fits)
      throw new PluginHostError('INVALID_ARGUMENT', `${name} must be a whole number from ${min} to ${max} (${unit}); got ${String(value)}`, { option: name });
    limits[name] = value;
  }
  return limits;
}

/** `67108864` → `"64 MiB"`, for messages that name a limit. */
export function formatBytes(bytes: number): string {
  for (const [unit, size] of [
    ['GiB', 1024 ** 3],
    ['MiB', 1024 ** 2],
    ['KiB', 1024],
  ] as const) {
    if (bytes >= size && bytes % size === 0) return `${bytes / size} ${unit}`;
  }
  return `${bytes} bytes`;
}
