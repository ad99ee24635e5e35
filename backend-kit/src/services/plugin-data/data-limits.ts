/**
 * Limits of per-plugin data (`settings.json`, `cache.json`). Exceeding one gives 400
 * `INVALID_ARGUMENT` whose message names the limit (and `details.limit`, `details.maximum`).
 */
export interface PluginDataLimits {
  /** Longest key, in UTF-16 code units. */
  readonly maxKeyLength: number;
  /** Largest value, in bytes of its JSON text. */
  readonly maxValueBytes: number;
  /** Largest whole file, in bytes of its JSON text. */
  readonly maxFileBytes: number;
  /** Deepest nesting of arrays and objects in a value. */
  readonly maxDepth: number;
  /** Longest cache lifetime, in seconds. */
  readonly maxTtlSeconds: number;
}

/** The defaults: 1024-character keys, 1 MiB values, 4 MiB files, depth 64, 365-day cache TTL. */
export const PLUGIN_DATA_LIMITS: PluginDataLimits = {
  maxKeyLength: 1024,
  maxValueBytes: 1024 * 1024,
  maxFileBytes: 4 * 1024 * 1024,
  maxDepth: 64,
  maxTtlSeconds: 365 * 24 * 60 * 60,
};
